// serveAcp in process, driven by the ACP SDK's own client over in-memory streams, with real
// Sessions on the fake Anthropic server and a real SQLite store (session-kit): the handshake, the
// errors a client gets for what it got wrong, a prompt's updates and stop reason, a permission
// ask answered by the client, a cancel, a prompt while one runs, modes and config options, list
// and load, and the close that stops what runs.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { serveAcp } from "../../../src/acp/agent.ts";
import type { AcpDeps } from "../../../src/acp/live.ts";
import { defineTool } from "../../../src/sdk.ts";
import { startKit, type Kit, type SessionSetup } from "../../support/session-kit.ts";

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(() => kit.close());
afterEach(() => kit.fake.reset());

const MODES: acp.SessionModeState = {
  currentModeId: "default",
  availableModes: [
    { id: "default", name: "default permissions", description: null },
    { id: "plan", name: "plan permissions", description: null },
  ],
};

type Client = {
  conn: acp.ClientConnection;
  updates: acp.SessionNotification[];
  asks: acp.RequestPermissionRequest[];
  warnings: string[];
  /** resolves once an update matching `check` arrived */
  update: (check: (u: acp.SessionUpdate) => boolean) => Promise<acp.SessionUpdate>;
  close: () => Promise<void>;
};

/** serveAcp and the SDK's client joined by two in-memory streams. */
function connect(setup: SessionSetup = {}, answer?: (ask: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>, problem?: string): Client {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const agentWriter = toClient.writable.getWriter();
  const warnings: string[] = [];
  const deps: AcpDeps = {
    store: kit.store,
    version: "9.9.9",
    optionsFor: (_cwd, _row, mode) => (problem ? { problem } : { ...kit.options(setup), ...(mode && "permissionMode" in mode ? { permissionMode: mode.permissionMode } : {}) }),
    modes: () => MODES,
    models: () => [{ value: "claude-test-1", name: "Test model" }],
    warn: (message) => void warnings.push(message),
  };
  const served = serveAcp(deps, toAgent.readable, (line) => void agentWriter.write(new TextEncoder().encode(line)));
  const updates: acp.SessionNotification[] = [];
  const asks: acp.RequestPermissionRequest[] = [];
  const waiters = new Set<() => void>();
  const app = acp
    .client({ name: "rein-unit" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      for (const wake of [...waiters]) wake();
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      asks.push(params);
      return answer ? answer(params) : { outcome: { outcome: "cancelled" } };
    });
  const conn = app.connect(acp.ndJsonStream(toAgent.writable, toClient.readable));
  const update = (check: (u: acp.SessionUpdate) => boolean) =>
    new Promise<acp.SessionUpdate>((resolve) => {
      const look = () => {
        const found = updates.map((n) => n.update).find(check);
        if (found) {
          waiters.delete(look);
          resolve(found);
        }
      };
      waiters.add(look);
      look();
    });
  const close = async () => {
    await toAgent.writable.close().catch(() => undefined);
    await served;
    await agentWriter.close().catch(() => undefined);
  };
  return { conn, updates, asks, warnings, update, close };
}

const INIT: acp.InitializeRequest = { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} };
const text = (t: string): acp.ContentBlock => ({ type: "text", text: t });
const said = (updates: acp.SessionNotification[]) =>
  updates.flatMap((n) => (n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text" ? [n.update.content.text] : [])).join("");

async function rpcError(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code: number; message: string };
    return { code: e.code, message: e.message };
  }
  throw new Error("the request succeeded");
}

test("initialize names rein, its version and what it can do; a new session starts in the configured mode", async () => {
  const client = connect();
  try {
    const init = await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    expect(init.protocolVersion).toBe(1);
    expect(init.agentInfo).toEqual({ name: "rein", title: "rein", version: "9.9.9" });
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { image: true, audio: false, embeddedContext: true } });
    const created = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] });
    expect(created.sessionId).toStartWith("s_");
    expect(created.modes?.currentModeId).toBe("default");
    expect(created.configOptions?.map((o) => o.id)).toEqual(["mode", "model"]);
    expect(kit.store.getSession(created.sessionId)?.cwd).toBe(kit.dir.path);
  } finally {
    await client.close();
  }
});

test("what the client got wrong is an error naming it: a relative or missing cwd, an unknown session, a bad param", async () => {
  const client = connect();
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    expect(await rpcError(client.conn.agent.request(acp.methods.agent.session.new, { cwd: "relative/dir", mcpServers: [] }))).toEqual({ code: -32602, message: 'Invalid params: cwd: "relative/dir" is not an absolute path; send the workspace folder\'s absolute path' });
    const missing = join(kit.dir.path, "no-such-folder");
    expect((await rpcError(client.conn.agent.request(acp.methods.agent.session.new, { cwd: missing, mcpServers: [] }))).message).toBe(`Invalid params: cwd: ${missing} does not exist; send an existing folder`);
    writeFileSync(join(kit.dir.path, "a-file"), "");
    expect((await rpcError(client.conn.agent.request(acp.methods.agent.session.new, { cwd: join(kit.dir.path, "a-file"), mcpServers: [] }))).message).toEndWith("is not a folder; send the workspace folder");
    expect(await rpcError(client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId: "s_nobody", prompt: [text("hi")] }))).toMatchObject({ code: -32002 });
    expect(await rpcError(client.conn.agent.request(acp.methods.agent.session.load, { sessionId: "s_nobody", cwd: kit.dir.path, mcpServers: [] }))).toMatchObject({ code: -32002 });
    const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] });
    const badMode = await rpcError(client.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "yolo" }));
    expect(badMode).toEqual({ code: -32602, message: 'Invalid params: no mode "yolo": choose one of default, plan' });
    expect((await rpcError(client.conn.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "gpt-nothing" }))).code).toBe(-32602);
  } finally {
    await client.close();
  }
});

test("a session that cannot run (no key) is authentication required, with the reason", async () => {
  const client = connect({}, undefined, "no API key for anthropic: set ANTHROPIC_API_KEY");
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    const error = await rpcError(client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] }));
    expect(error).toEqual({ code: -32000, message: "Authentication required: no API key for anthropic: set ANTHROPIC_API_KEY" });
  } finally {
    await client.close();
  }
});

test("a prompt streams the reply as message chunks before its answer, which ends the turn", async () => {
  const client = connect();
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] });
    kit.fake.script({ reply: [{ type: "text", text: "Hello from the fake model." }] });
    const answer = await client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [text("say hello")] });
    expect(answer.stopReason).toBe("end_turn");
    expect(said(client.updates.filter((n) => n.sessionId === sessionId))).toBe("Hello from the fake model.");
    expect(kit.fake.requests.at(-1)?.body.messages.at(-1).content.at(-1)).toMatchObject({ type: "text", text: "say hello" });
    // a reply cut by the token limit is max_tokens
    kit.fake.script({ reply: [{ type: "text", text: "cut" }], stopReason: "max_tokens" });
    expect((await client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [text("go on")] })).stopReason).toBe("max_tokens");
  } finally {
    await client.close();
  }
});

test("a call that asks is asked of the client: allowed once it runs, rejected it does not, and the call's updates say so", async () => {
  let ran = 0;
  const touch = defineTool({ name: "touch", description: "touches", input: v.object({ path: v.string() }), permissions: (input) => [{ permission: "edit", pattern: input.path, always: [input.path] }], run: () => `touched ${++ran}` });
  const answers: string[] = ["allow_once", "reject_once"];
  const client = connect({ tools: [touch], rules: [] }, () => ({ outcome: { outcome: "selected", optionId: answers.shift()! } }));
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] });
    kit.fake.script({ reply: [{ type: "tool_use", name: "touch", input: { path: "a.txt" } }] }, { reply: [{ type: "tool_use", name: "touch", input: { path: "b.txt" } }] }, { reply: [{ type: "text", text: "done" }] });
    expect((await client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [text("touch two files")] })).stopReason).toBe("end_turn");
    expect(ran).toBe(1);
    expect(client.asks.map((a) => [a.toolCall.toolCallId, a.options.map((o) => o.optionId)])).toEqual([
      ["toolu_fake_1", ["allow_once", "allow_always", "reject_once"]],
      ["toolu_fake_2", ["allow_once", "allow_always", "reject_once"]],
    ]);
    const ends = client.updates.flatMap((n) => (n.update.sessionUpdate === "tool_call_update" && n.update.status && n.update.status !== "in_progress" ? [[n.update.toolCallId, n.update.status]] : []));
    expect(ends).toEqual([["toolu_fake_1", "completed"], ["toolu_fake_2", "failed"]]);
  } finally {
    await client.close();
  }
});

test("a cancel ends the running prompt as cancelled; a second prompt while one runs is refused", async () => {
  const client = connect();
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] });
    kit.fake.script({ hang: true, afterText: "thinking about it" });
    const running = client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [text("take your time")] });
    await client.update((u) => u.sessionUpdate === "agent_message_chunk");
    const twice = await rpcError(client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [text("and this")] }));
    expect(twice.code).toBe(-32600);
    expect(twice.message).toStartWith(`Invalid request: a prompt is already running in session ${sessionId}`);
    expect((await rpcError(client.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" }))).code).toBe(-32600);
    await client.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await running).stopReason).toBe("cancelled");
  } finally {
    await client.close();
  }
});

test("a mode switch is told to the client and kept with the session; load replays the conversation in that mode", async () => {
  const client = connect();
  let sessionId = "";
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    ({ sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] }));
    kit.fake.script({ reply: [{ type: "text", text: "First answer." }] });
    await client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [text("first question")] });
    await client.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
    await client.update((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "plan");
    const listed = await client.conn.agent.request(acp.methods.agent.session.list, { cwd: kit.dir.path });
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
  } finally {
    await client.close();
  }
  // A new connection (the editor restarted) loads it: the history comes back as updates, the mode as it was left.
  const again = connect();
  try {
    await again.conn.agent.request(acp.methods.agent.initialize, INIT);
    const loaded = await again.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: kit.dir.path, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe("plan");
    const replayed = again.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
    expect(replayed.find((u) => u.sessionUpdate === "user_message_chunk")).toMatchObject({ content: { type: "text", text: "first question" } });
    expect(said(again.updates)).toBe("First answer.");
  } finally {
    await again.close();
  }
});

test("the client closing its end stops a running prompt; its result is stored as interrupted", async () => {
  const client = connect();
  await client.conn.agent.request(acp.methods.agent.initialize, INIT);
  const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] });
  kit.fake.script({ hang: true, afterText: "half an answer" });
  void client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [text("long question")] }).catch(() => undefined);
  await client.update((u) => u.sessionUpdate === "agent_message_chunk");
  await client.close(); // serveAcp returns only once the run has stopped and persisted
  const kinds = kit.store.events(sessionId).map((e) => e.type);
  expect(kinds).toContain("result");
  expect(kit.store.events(sessionId).find((e) => e.type === "result")).toMatchObject({ status: "interrupted" });
  expect(client.warnings).toEqual([]);
});

test("an edit's call carries the whole file before and after, read before the tool runs", async () => {
  const file = join(kit.dir.path, "src", "note.txt");
  mkdirSync(join(kit.dir.path, "src"), { recursive: true });
  writeFileSync(file, "alpha\nbeta\n");
  // A stand-in edit tool that changes the file as the real one would: the diff must show the text from before.
  const edit = defineTool({
    name: "edit",
    description: "edits",
    input: v.object({ path: v.string(), old_string: v.string(), new_string: v.string() }),
    run: async (input) => {
      writeFileSync(file, "alpha\nBETA\n");
      return `edited ${input.path}`;
    },
  });
  const client = connect({ tools: [edit] });
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] });
    kit.fake.script({ reply: [{ type: "tool_use", name: "edit", input: { path: "src/note.txt", old_string: "beta", new_string: "BETA" } }] }, { reply: [{ type: "text", text: "ok" }] });
    await client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [text("shout beta")] });
    const done = client.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed") as acp.ToolCallUpdate;
    expect(done.content?.[0]).toEqual({ type: "diff", path: file, oldText: "alpha\nbeta\n", newText: "alpha\nBETA\n" });
    const started = client.updates.map((n) => n.update).find((u) => u.sessionUpdate === "tool_call") as acp.ToolCall;
    expect(started).toMatchObject({ kind: "edit", title: "edit: src/note.txt", locations: [{ path: file, line: 2 }] });
  } finally {
    await client.close();
  }
});

test("rein's own commands are run by rein and never reach the model: /model shows and switches, /undo without checkpoints says so", async () => {
  const client = connect();
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] });
    const before = kit.fake.requests.length;
    const run = async (line: string) => {
      const from = client.updates.length;
      const answer = await client.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [text(line)] });
      return { stop: answer.stopReason, said: said(client.updates.slice(from)), updates: client.updates.slice(from).map((n) => n.update) };
    };
    expect(await run("/model")).toMatchObject({ stop: "end_turn", said: "model: claude-test-1" });
    const switched = await run("/model claude-haiku-4-5");
    expect(switched.said).toBe("model: claude-haiku-4-5 (from the next turn)");
    const options = switched.updates.find((u) => u.sessionUpdate === "config_option_update") as { configOptions: acp.SessionConfigOption[] };
    expect(options.configOptions.find((o) => o.id === "model")).toMatchObject({ currentValue: "claude-haiku-4-5" });
    expect((await run("/undo")).said).toBe("this session takes no checkpoints: there is nothing to undo");
    expect(kit.fake.requests.length).toBe(before);
    // a line that only looks like one of them is the model's
    kit.fake.script({ reply: [{ type: "text", text: "that is not a command" }] });
    expect((await run("/models please")).said).toBe("that is not a command");
    expect(kit.fake.requests.length).toBe(before + 1);
  } finally {
    await client.close();
  }
});

test("authenticate succeeds when a session can run, and is authentication required naming the method when not", async () => {
  const ok = connect();
  const missing = connect({}, undefined, "no API key for anthropic");
  try {
    await ok.conn.agent.request(acp.methods.agent.initialize, INIT);
    expect(await ok.conn.agent.request(acp.methods.agent.authenticate, { methodId: "environment" })).toEqual({});
    await missing.conn.agent.request(acp.methods.agent.initialize, INIT);
    expect(await rpcError(missing.conn.agent.request(acp.methods.agent.authenticate, { methodId: "environment" }))).toEqual({
      code: -32000,
      message: "Authentication required: no API key for anthropic (environment: set the key and restart the agent)",
    });
  } finally {
    await ok.close();
    await missing.close();
  }
});

test("set_config_option switches the mode like set_mode and answers with the options as they now are; list filters by folder", async () => {
  const client = connect();
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] });
    const set = await client.conn.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "plan" });
    expect(set.configOptions.find((o) => o.id === "mode")).toMatchObject({ currentValue: "plan" });
    await client.update((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "plan");
    expect(JSON.parse(kit.store.getSession(sessionId)!.settings ?? "{}")).toMatchObject({ permission_mode: "plan" });
    const other = join(kit.dir.path, "elsewhere");
    mkdirSync(other, { recursive: true });
    const elsewhere = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: other, mcpServers: [] });
    const here = (await client.conn.agent.request(acp.methods.agent.session.list, { cwd: other })).sessions.map((s) => s.sessionId);
    expect(here).toEqual([elsewhere.sessionId]);
    const all = (await client.conn.agent.request(acp.methods.agent.session.list, {})).sessions.map((s) => s.sessionId);
    expect(all).toEqual(expect.arrayContaining([sessionId, elsewhere.sessionId]));
  } finally {
    await client.close();
  }
});

test("a new session announces rein's own commands after its response; a live one is loaded as it is; a trashed one cannot be", async () => {
  const client = connect();
  let trashed = "";
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    const { sessionId } = await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] });
    const announced = (await client.update((u) => u.sessionUpdate === "available_commands_update")) as { availableCommands: acp.AvailableCommand[] };
    expect(announced.availableCommands.map((c) => c.name)).toEqual(["compact", "undo", "redo", "model"]);
    expect(announced.availableCommands.find((c) => c.name === "model")?.input).toEqual({ hint: "[MODEL]" });
    expect(client.updates.find((n) => n.update.sessionUpdate === "available_commands_update")?.sessionId).toBe(sessionId);
    // loaded while it is open in this connection: the same live session, its mode as it is now
    await client.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const again = await client.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: kit.dir.path, mcpServers: [] });
    expect(again.modes?.currentModeId).toBe("plan");
    trashed = (await client.conn.agent.request(acp.methods.agent.session.new, { cwd: kit.dir.path, mcpServers: [] })).sessionId;
  } finally {
    await client.close();
  }
  expect(kit.store.trashSession(trashed)).toBe(true);
  const later = connect();
  try {
    await later.conn.agent.request(acp.methods.agent.initialize, INIT);
    const error = await rpcError(later.conn.agent.request(acp.methods.agent.session.load, { sessionId: trashed, cwd: kit.dir.path, mcpServers: [] }));
    expect(error).toEqual({ code: -32002, message: "Resource not found" });
  } finally {
    await later.close();
  }
});

test("a method rein does not serve is method not found; a cancel for no session, or a malformed one, is ignored", async () => {
  const client = connect();
  try {
    await client.conn.agent.request(acp.methods.agent.initialize, INIT);
    expect(await rpcError(client.conn.agent.request("rein/no_such_method", {}))).toEqual({ code: -32601, message: "Method not found: rein/no_such_method" });
    await client.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId: "s_nobody" });
    await client.conn.agent.notify(acp.methods.agent.session.cancel, { nothing: true } as never);
    // the connection still serves
    expect((await client.conn.agent.request(acp.methods.agent.session.list, {})).sessions).toBeArray();
  } finally {
    await client.close();
  }
});
