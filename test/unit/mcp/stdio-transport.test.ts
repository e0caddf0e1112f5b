// The stdio transport on real bash processes: messages both ways, a bad line reported and the next
// read, a line over the bound stopping the server, and close ending the server and what it forked
// (EOF first, SIGTERM for one that ignores EOF), kill ending it at once.
import { afterEach, expect, test } from "bun:test";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { StdioTransport } from "../../../src/mcp/stdio-transport.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const open: StdioTransport[] = [];
const dirs: TempDir[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) t.kill();
  for (const d of dirs.splice(0)) d.remove();
});

function transport(script: string, maxLineBytes = 1 << 20) {
  const dir = tempDir("rein-stdio-");
  dirs.push(dir);
  // HOME is the temp dir: bash on a socket for stdin reads ~/.bashrc, and the machine's may start more shells.
  const t = new StdioTransport({ command: "bash", args: ["-c", script], env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir.path }, cwd: dir.path, maxLineBytes });
  open.push(t);
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  let closed = 0;
  t.onmessage = (m) => void messages.push(m);
  t.onerror = (e) => void errors.push(e.message);
  t.onclose = () => void closed++;
  return { t, messages, errors, closed: () => closed, dir: dir.path };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await Bun.sleep(10);
  if (!check()) throw new Error(`never happened: ${what}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const ping: JSONRPCMessage = { jsonrpc: "2.0", id: 1, method: "ping" };

test("a message sent is one line on the server's stdin; each line it writes back is a message", async () => {
  const s = transport("while IFS= read -r line; do printf '%s\\n' \"$line\"; done");
  await s.t.start();
  expect(s.t.pid).toBeNumber();
  await s.t.send(ping);
  await s.t.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await until(() => s.messages.length === 2, "two echoes");
  expect(s.messages).toEqual([ping, { jsonrpc: "2.0", method: "notifications/initialized" }]);
  await s.t.close();
  expect(s.closed()).toBe(1);
});

test("a line that is not JSON-RPC is reported and the next one is still read", async () => {
  const s = transport(`echo 'not json at all'; echo '{"jsonrpc":"2.0","id":7,"result":{}}'; exec cat >/dev/null`);
  await s.t.start();
  await until(() => s.messages.length === 1, "the good line");
  expect(s.errors).toHaveLength(1);
  expect(s.messages).toEqual([{ jsonrpc: "2.0", id: 7, result: {} }]);
  await s.t.close();
});

test("a message over the line bound stops the server and says why, in bytes or MiB", async () => {
  const s = transport(`head -c 5000 /dev/zero | tr '\\0' x; exec cat >/dev/null`, 1000);
  await s.t.start();
  await until(() => s.closed() === 1, "the server stopped");
  expect(s.t.failure).toBe("it sent a message larger than 1000 bytes (the most rein reads as one line), so it was stopped");
  expect(s.errors).toContain(s.t.failure!);
  expect(s.messages).toEqual([]);
  await expect(s.t.send(ping)).rejects.toThrow("Not connected");
});

test("close: a server that exits on EOF is ended, and a child it forked goes with it", async () => {
  const s = transport(`sleep 300 & echo "$!" > child.pid; exec cat >/dev/null`);
  await s.t.start();
  const childFile = `${s.dir}/child.pid`;
  await until(() => (Bun.file(childFile).size ?? 0) > 0, "the child's pid");
  const child = Number((await Bun.file(childFile).text()).trim());
  const server = s.t.pid!;
  expect(alive(child)).toBe(true);
  await s.t.close();
  await until(() => !alive(server), "the server gone");
  await until(() => !alive(child), "the forked child gone");
  await expect(s.t.send(ping)).rejects.toThrow("Not connected");
  // a second close does nothing
  await s.t.close();
});

test("close: a server that ignores EOF is sent SIGTERM after the grace time, and ends", async () => {
  const s = transport(`trap 'echo got-term >&2; exit 0' TERM; exec 0<&-; while :; do sleep 0.05; done`);
  let stderr = "";
  s.t.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await s.t.start();
  const pid = s.t.pid!;
  await s.t.close();
  await until(() => !alive(pid), "the server gone");
  await until(() => stderr.includes("got-term"), "the TERM trap ran");
});

test("kill ends the server and its group at once, and onclose is told", async () => {
  const s = transport(`trap '' TERM; sleep 300 & echo "$!" > child.pid; exec cat >/dev/null`);
  await s.t.start();
  const childFile = `${s.dir}/child.pid`;
  await until(() => (Bun.file(childFile).size ?? 0) > 0, "the child's pid");
  const child = Number((await Bun.file(childFile).text()).trim());
  s.t.kill();
  await until(() => s.closed() === 1, "onclose");
  await until(() => !alive(child), "the forked child gone");
  await expect(s.t.send(ping)).rejects.toThrow("Not connected");
});

test("a server that exits by itself is closed once, and sends fail after", async () => {
  const s = transport(`echo '{"jsonrpc":"2.0","method":"bye"}'; exit 3`);
  await s.t.start();
  await until(() => s.closed() === 1, "onclose");
  expect(s.messages).toEqual([{ jsonrpc: "2.0", method: "bye" }]);
  await expect(s.t.send(ping)).rejects.toThrow("Not connected");
  expect(s.closed()).toBe(1);
});

test("a command that does not exist rejects start with the spawn error", async () => {
  const dir = tempDir("rein-stdio-");
  dirs.push(dir);
  const t = new StdioTransport({ command: "/nonexistent/mcp-server", args: [], env: {}, cwd: dir.path, maxLineBytes: 1024 });
  const errors: string[] = [];
  t.onerror = (e) => void errors.push(e.message);
  await expect(t.start()).rejects.toThrow("ENOENT");
  expect(errors.join("\n")).toContain("ENOENT");
  await t.close();
});

test("the server's stderr is there from the start, nothing it wrote early lost", async () => {
  const s = transport(`echo early >&2; echo later >&2; exec cat >/dev/null`);
  await s.t.start();
  let text = "";
  s.t.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
  await until(() => text.includes("later"), "stderr");
  expect(text).toBe("early\nlater\n");
  await s.t.close();
});
