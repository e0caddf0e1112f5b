// The terminal's habits from the peers, in a real terminal (tmux) against the fake model: a prompt
// on the command line, errors said once, no empty session left behind.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const suite = terminalSuite("habits");
const { start } = suite;

const sessionCount = (data: string) => {
  const db = new Database(join(data, "rein.db"), { readonly: true });
  const { n } = db.query("SELECT count(*) AS n FROM sessions").get() as { n: number };
  db.close();
  return n;
};

describe.skipIf(!hasTmux)("the terminal's habits", () => {
  test('rein "PROMPT" starts the terminal and sends that prompt at once', async () => {
    suite.fake.script({ reply: [{ type: "text", text: "Fixed the test." }] });
    const { pane } = await start({ name: "argprompt", args: `'fix the test'`, ready: "Fixed the test." });
    const body = suite.fake.requests.at(-1)!.body as { messages: { content: { type: string; text?: string }[] }[] };
    expect(body.messages[0]!.content.find((b) => b.type === "text")?.text).toBe("fix the test");
    expect(pane.screen({ joined: true })).toMatch(/^› fix the test$/m);
    pane.keys("C-d");
    await pane.until(/EXIT=0/);
  }, 30_000);

  test("a failed API call (401) is said once, and the prompt comes back", async () => {
    suite.fake.script({ error: 401 }, { reply: [{ type: "text", text: "Working again." }] });
    const { pane } = await start({ name: "error-once" });
    pane.keys("hello", "Enter");
    const shown = await pane.until(/session: in \d+/);
    const lines = shown.split("\n").filter((line) => /401|authentication|invalid/i.test(line));
    expect(lines).toHaveLength(1);
    pane.keys("again", "Enter");
    await pane.until("Working again.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("Escape stops a running turn: its partial answer is kept and the prompt comes back", async () => {
    suite.fake.script(
      { reply: [{ type: "text", text: "A slow answer that streams word by word for long enough to stop it." }], chunkSize: 3, delayMs: 150 },
      { reply: [{ type: "text", text: "Next one." }] },
    );
    const { pane } = await start({ name: "escape" });
    pane.keys("talk slowly", "Enter");
    await pane.until("A slow");
    pane.keys("Escape");
    await pane.until("(interrupted)");
    expect(pane.screen({ joined: true })).not.toContain("to stop it.");
    pane.keys("next", "Enter");
    await pane.until("Next one.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("the task list is shown when a todo call changes it", async () => {
    const todos = [
      { content: "read the parser", status: "done" },
      { content: "fix the bug", status: "in_progress" },
      { content: "run the tests", status: "pending" },
    ];
    suite.fake.script({ reply: [{ type: "tool_use", name: "todo", input: { todos } }] }, { reply: [{ type: "text", text: "Planned." }] });
    const { pane } = await start({ name: "todo" });
    pane.keys("plan it", "Enter");
    const shown = await pane.until("Planned.");
    expect(shown).toMatch(/✓ todo\s+3 tasks.*\n\s+✓ read the parser\n\s+▸ fix the bug\n\s+○ run the tests\n/);
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("quitting without a prompt leaves no session; /clear before a prompt drops the empty one", async () => {
    const { pane, data } = await start({ name: "no-empty" });
    pane.keys("C-d");
    const shown = await pane.until(/EXIT=0/);
    expect(shown).not.toContain("resume: rein -r");
    expect(sessionCount(data)).toBe(0);

    suite.fake.script({ reply: [{ type: "text", text: "Kept." }] });
    const again = await start({ name: "no-empty-clear" });
    again.pane.keys("/clear", "Enter");
    await again.pane.until(/new session s_\w+/);
    again.pane.keys("keep this one", "Enter");
    await again.pane.until("Kept.");
    again.pane.keys("C-d");
    await again.pane.until(/resume: rein -r s_\w+/);
    expect(sessionCount(again.data)).toBe(1);
  }, 30_000);
});
