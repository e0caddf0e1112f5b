// The minimal interactive mode in a real terminal: tmux runs the compiled binary, send-keys types,
// capture-pane reads the screen.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeAnthropic, type FakeServer } from "../fake/server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const BIN = join(ROOT, "dist/rein");
const hasTmux = Bun.spawnSync(["sh", "-c", "command -v tmux"]).exitCode === 0;
const socket = `rein-test-${process.pid}`;

let fake: FakeServer;
let dir: string;

beforeAll(async () => {
  if (!existsSync(BIN)) Bun.spawnSync(["bun", "build.ts"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  fake = await startFakeAnthropic();
  dir = mkdtempSync(join(tmpdir(), "rein-tty-"));
});

afterAll(async () => {
  if (hasTmux) tmux("kill-server");
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

function tmux(...args: string[]): string {
  return Bun.spawnSync(["tmux", "-L", socket, ...args], { stdout: "pipe", stderr: "pipe" }).stdout.toString();
}

const screen = () => tmux("capture-pane", "-t", "rein", "-p");

/** Polls the screen until it shows `text`; a terminal has no event to await. */
async function waitForScreen(text: string | RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const shown = screen();
    if (typeof text === "string" ? shown.includes(text) : text.test(shown)) return shown;
    await Bun.sleep(50);
  }
  throw new Error(`screen never showed ${text}:\n${screen()}`);
}

describe.skipIf(!hasTmux)("interactive mode in tmux", () => {
  test("rein --serve in a terminal serves the live session: a client answers its permission ask first and the dialog closes", async () => {
    const work = join(dir, "served");
    await Bun.write(join(work, ".git", "HEAD"), "ref: refs/heads/main\n");
    const marker = join(work, "made-over-http");
    fake.script(
      { reply: [{ type: "tool_use", name: "bash", input: { command: `touch ${marker}` } }] },
      { reply: [{ type: "text", text: "Made it over HTTP." }] },
    );
    const token = "s".repeat(32);
    const env = `env ANTHROPIC_API_KEY=test-key ANTHROPIC_BASE_URL=${fake.url} REIN_DATA_DIR=${join(dir, "serve-data")} REIN_CONFIG_DIR=${join(dir, "config")} REIN_SERVER_TOKEN=${token} NO_COLOR=1`;
    tmux("new-session", "-d", "-s", "served", "-x", "160", "-y", "40", "-c", work, `${env} ${BIN} --serve --port 0; echo EXIT=$?; read x`);
    const shown = () => tmux("capture-pane", "-t", "served", "-p", "-J");
    const until = async (text: string) => {
      const deadline = Date.now() + 10_000;
      while (!shown().includes(text) && Date.now() < deadline) await Bun.sleep(50);
      expect(shown()).toContain(text);
    };
    await until("this session is served on");
    const [, base, id] = /served on (http:\/\/[\d.:]+)\/sessions\/(s_\w+)/.exec(shown())!;
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };

    tmux("send-keys", "-t", "served", "touch it", "Enter");
    await until("wants to:");
    const info = (await (await fetch(`${base}/sessions/${id}`, { headers: auth })).json()) as { pending_asks: { id: string }[] };
    expect(info.pending_asks).toHaveLength(1);
    const answer = await fetch(`${base}/sessions/${id}/permissions/${info.pending_asks[0]!.id}`, { method: "POST", headers: auth, body: JSON.stringify({ reply: "once" }) });
    expect(answer.status).toBe(200);
    await until("Made it over HTTP.");
    expect(shown()).toContain("(answered elsewhere)");
    expect(existsSync(marker)).toBe(true);

    // The client sees the terminal session's events, its answer among them.
    const controller = new AbortController();
    const stream = (await fetch(`${base}/sessions/${id}/events`, { headers: auth, signal: controller.signal })).body!.getReader();
    let seen = "";
    while (!seen.includes("event: result")) seen += new TextDecoder().decode((await stream.read()).value);
    controller.abort();
    expect(seen).toContain("event: permission_ask");
    expect(seen).toMatch(/event: permission_reply\ndata: \{[^\n]*"reply":"once"/);

    // A client's prompt runs in the live session; one typed meanwhile waits for it, shown as queued.
    fake.script(
      { reply: [{ type: "text", text: "The client's slow answer, streaming in pieces." }], chunkSize: 4, delayMs: 100 },
      { reply: [{ type: "text", text: "The terminal's turn came after." }] },
    );
    const sent = await fetch(`${base}/sessions/${id}/prompt`, { method: "POST", headers: auth, body: JSON.stringify({ text: "from the client" }) });
    expect(sent.status).toBe(202);
    await until("The client's");
    tmux("send-keys", "-t", "served", "from the terminal", "Enter");
    await until("queued: from the terminal");
    await until("The terminal's turn came after.");
    const order = shown();
    expect(order.indexOf("streaming in pieces.")).toBeLessThan(order.indexOf("› from the terminal"));
    tmux("send-keys", "-t", "served", "C-d");
    await until("EXIT=0");
  }, 30_000);

  test("asks once whether to trust a workspace with its own tools, and remembers the answer", async () => {
    const work = join(dir, "trusting");
    await Bun.write(join(work, ".rein", "tools", "noop.ts"), "export default 1;\n");
    const data = join(dir, "trust-data");
    const env = `env ANTHROPIC_API_KEY=test-key ANTHROPIC_BASE_URL=${fake.url} REIN_DATA_DIR=${data} REIN_CONFIG_DIR=${join(dir, "config")} NO_COLOR=1`;
    tmux("new-session", "-d", "-s", "trust", "-x", "120", "-y", "30", "-c", work, `${env} ${BIN}; echo EXIT=$?; read x`);
    const shown = () => tmux("capture-pane", "-t", "trust", "-p");
    const deadline = Date.now() + 10_000;
    while (!shown().includes("Trust") && Date.now() < deadline) await Bun.sleep(50);
    expect(shown()).toContain(`Trust ${work}?`);
    tmux("send-keys", "-t", "trust", "y");
    tmux("send-keys", "-t", "trust", "Enter");
    while (!shown().includes("Ctrl-D exits") && Date.now() < deadline) await Bun.sleep(50);
    expect(shown()).toContain("Ctrl-D exits");
    const trust = await Bun.file(join(data, "trust.json")).json();
    expect(trust.trusted).toEqual([work]);
    tmux("send-keys", "-t", "trust", "C-d");
    while (!shown().includes("EXIT=") && Date.now() < deadline) await Bun.sleep(50);
    expect(shown()).toContain("EXIT=0");
  }, 20_000);

  test("streams an answer, asks for a permission, aborts a turn with Ctrl-C and exits on a second Ctrl-C", async () => {
    const marker = join(dir, "made-by-rein");
    fake.script(
      { reply: [{ type: "text", text: "I will make it." }, { type: "tool_use", name: "bash", input: { command: `touch ${marker}` } }] },
      { reply: [{ type: "text", text: "Made the file." }] },
      { reply: [{ type: "text", text: "A slow answer streaming in small pieces for a long while." }], chunkSize: 4, delayMs: 150 },
      { reply: [{ type: "text", text: "Back after the interrupt." }] },
    );
    const env = [
      `ANTHROPIC_API_KEY=test-key`,
      `ANTHROPIC_BASE_URL=${fake.url}`,
      `REIN_DATA_DIR=${join(dir, "data")}`,
      `REIN_CONFIG_DIR=${join(dir, "config")}`,
      `NO_COLOR=1`,
    ].join(" ");
    tmux("new-session", "-d", "-s", "rein", "-x", "120", "-y", "40", "-c", dir, `env ${env} ${BIN}; echo EXIT=$?; read x`);
    await waitForScreen("Ctrl-D exits");

    tmux("send-keys", "-t", "rein", "make a file", "Enter");
    await waitForScreen("wants to:");
    expect(screen()).toContain(`touch ${marker}`);
    expect(existsSync(marker)).toBe(false);
    await waitForScreen("Enter confirms"); // keys answer once the dialog has been up a moment
    tmux("send-keys", "-t", "rein", "Enter"); // Enter confirms the marked answer, 1. Yes
    await waitForScreen("Made the file.");
    expect(existsSync(marker)).toBe(true);

    tmux("send-keys", "-t", "rein", "now something slow", "Enter");
    await waitForScreen("A slow");
    tmux("send-keys", "-t", "rein", "C-c");
    await waitForScreen("(interrupted)");
    expect(screen()).not.toContain("long while.");

    tmux("send-keys", "-t", "rein", "go on", "Enter");
    await waitForScreen("Back after the interrupt.");
    const last = fake.requests.at(-1)!.body as { messages: { role: string; content: { type: string; text?: string }[] }[] };
    const roles = last.messages.map((m) => m.role);
    expect(roles.slice(-3)).toEqual(["user", "assistant", "user"]);
    expect(last.messages.at(-2)!.content[0]!.text).toStartWith("A slow");

    tmux("send-keys", "-t", "rein", "C-c");
    await waitForScreen("again to exit");
    tmux("send-keys", "-t", "rein", "C-c");
    const final = await waitForScreen(/EXIT=\d+/);
    expect(final).toContain("EXIT=0");
    expect(final).toMatch(/resume: rein -r s_/);
  }, 30_000);

  test("a status line after each answer gives the model, the context used and the session's tokens and cost; /cost its totals", async () => {
    const work = join(dir, "costs");
    await Bun.write(join(work, ".git", "HEAD"), "ref: refs/heads/main\n");
    // claude-sonnet-5-5: $2 per million input tokens, $10 output, $0.20 cache read, $2.50 cache write.
    const usage = { input_tokens: 1234, output_tokens: 56, cache_read_input_tokens: 2000, cache_creation_input_tokens: 100 };
    fake.script({ reply: [{ type: "text", text: "First answer." }], usage }, { reply: [{ type: "text", text: "Second answer." }], usage });
    const env = `env ANTHROPIC_API_KEY=test-key ANTHROPIC_BASE_URL=${fake.url} REIN_DATA_DIR=${join(dir, "cost-data")} REIN_CONFIG_DIR=${join(dir, "config")} NO_COLOR=1`;
    tmux("new-session", "-d", "-s", "cost", "-x", "160", "-y", "30", "-c", work, `${env} ${BIN} -m claude-sonnet-5-5; echo EXIT=$?; read x`);
    const shown = () => tmux("capture-pane", "-t", "cost", "-p");
    const until = async (text: string) => {
      const deadline = Date.now() + 10_000;
      while (!shown().includes(text) && Date.now() < deadline) await Bun.sleep(50);
      expect(shown()).toContain(text);
    };
    await until("Ctrl-D exits");
    tmux("send-keys", "-t", "cost", "one", "Enter");
    await until("First answer.");
    // model, context used (input 3334 + output 56 of a 1M window: under 1%, shown as 1%), the session's tokens and money, counted as /cost counts
    await until("claude-sonnet-5-5 · context 1% of 1M · session: in 1234 (cache read 2000, write 100) · out 56 · $0.0037");
    // The hidden call that names the session after its first turn (the fake: 60 in, 6 out) is spent too:
    // once it is stored, the status line and /cost both count it.
    const listed = { ...process.env, REIN_DATA_DIR: join(dir, "cost-data"), REIN_CONFIG_DIR: join(dir, "config"), NO_COLOR: "1" };
    const deadline = Date.now() + 10_000;
    while (!Bun.spawnSync([BIN, "sessions", "list"], { cwd: work, env: listed }).stdout.toString().includes("Named: one") && Date.now() < deadline) await Bun.sleep(100);
    tmux("send-keys", "-t", "cost", "two", "Enter");
    await until("Second answer.");
    await until("session: in 2528 (cache read 4000, write 200) · out 118 · $0.0075");
    tmux("send-keys", "-t", "cost", "/cost", "Enter");
    await until("2 runs: tokens: in 2528 (cache read 4000, write 200) · out 118 · $0.0075");
    tmux("send-keys", "-t", "cost", "C-d");
    await until("EXIT=0");
  }, 20_000);
});
