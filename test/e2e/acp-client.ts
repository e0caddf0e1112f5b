// The SDK's client side spawning the compiled `rein acp`: records every stdout line and update,
// answers permission asks with the test's function, and (when given) serves the client's files.
import * as acp from "@agentclientprotocol/sdk";
import { BINARY, world, type World } from "./harness.ts";

export type ClientFiles = {
  read: (request: acp.ReadTextFileRequest) => string;
  write: (request: acp.WriteTextFileRequest) => void;
};

export type Agent = {
  conn: acp.ClientConnection;
  updates: acp.SessionNotification[];
  asks: acp.RequestPermissionRequest[];
  /** every line rein wrote on stdout */
  lines: string[];
  stderr: () => string;
  /** raw bytes to rein's stdin, past the SDK */
  send: (text: string) => void;
  closeStdin: () => void;
  exited: Promise<number>;
  /** resolves when an update matching `check` has arrived */
  update: (check: (u: acp.SessionUpdate) => boolean) => Promise<acp.SessionUpdate>;
  /** resolves when stdout holds a line matching `check` */
  line: (check: (message: Record<string, unknown>) => boolean) => Promise<Record<string, unknown>>;
};

export type Answer = (ask: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

const agents: Agent[] = [];
const worlds: World[] = [];

/** Closes every agent's stdin, waits for it to exit, and disposes of the worlds (for afterEach). */
export async function stopAgents(): Promise<void> {
  for (const agent of agents.splice(0)) {
    agent.closeStdin();
    await agent.exited;
  }
  for (const w of worlds.splice(0)) await w[Symbol.asyncDispose]();
}

export async function newWorld(): Promise<World> {
  const w = await world();
  worlds.push(w);
  return w;
}

/**
 * Spawns `dist/rein acp` with the SDK's client connected to it. `files` serves `fs/read_text_file`
 * and `fs/write_text_file` (offer them in initialize's clientCapabilities too).
 */
export function startAgent(w: World, answer: Answer = () => ({ outcome: { outcome: "cancelled" } }), env: Record<string, string | undefined> = {}, files?: ClientFiles): Agent {
  const proc = Bun.spawn([BINARY, "acp"], { cwd: w.cwd, env: w.env(env), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const lines: string[] = [];
  const updates: acp.SessionNotification[] = [];
  const asks: acp.RequestPermissionRequest[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  let stderr = "";
  void (async () => {
    for await (const chunk of proc.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const [forClient, forRecord] = proc.stdout.tee();
  void (async () => {
    let rest = "";
    for await (const chunk of forRecord) {
      rest += new TextDecoder().decode(chunk);
      const parts = rest.split("\n");
      rest = parts.pop()!;
      lines.push(...parts);
      wake();
    }
  })();
  let open = true;
  const closeStdin = () => {
    if (open) void proc.stdin.end();
    open = false;
  };
  const input = new WritableStream<Uint8Array>({
    write(chunk) {
      if (!open) return;
      proc.stdin.write(chunk);
      void proc.stdin.flush();
    },
  });
  const app = acp
    .client({ name: "rein-e2e" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      wake();
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      asks.push(params);
      wake();
      return answer(params);
    });
  if (files) {
    app.onRequest(acp.methods.client.fs.readTextFile, ({ params }) => ({ content: files.read(params) }));
    app.onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      files.write(params);
      return {};
    });
  }
  const conn = app.connect(acp.ndJsonStream(input, forClient));
  const until = <T>(find: () => T | undefined, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; stderr:\n${stderr}`));
      }, 15_000);
      waiters.add(check);
      check();
    });
  const agent: Agent = {
    conn,
    updates,
    asks,
    lines,
    stderr: () => stderr,
    send: (text) => {
      proc.stdin.write(text);
      void proc.stdin.flush();
    },
    closeStdin,
    exited: proc.exited,
    update: (check) => until(() => updates.map((n) => n.update).find(check), "an update"),
    line: (check) =>
      until(
        () =>
          lines
            .map((l) => JSON.parse(l) as Record<string, unknown>)
            .find(check),
        "a line",
      ),
  };
  agents.push(agent);
  return agent;
}

export const INIT: acp.InitializeRequest = { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } } };

