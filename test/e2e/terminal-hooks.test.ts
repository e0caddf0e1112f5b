// Hooks in the terminal (tmux, the compiled binary, the fake model): a hook's continue:false is
// shown and the prompt comes back; /clear ends the session for its hooks and starts the next as
// "clear"; exiting ends it as prompt_input_exit.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const suite = terminalSuite("hooks");
const { start } = suite;

/** rein's user config for the window `name`, with these hooks. */
function userHooks(name: string, hooks: Record<string, unknown>): void {
  const dir = join(suite.dir.path, `${name}-config`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.json"), JSON.stringify({ hooks }));
}

const recording = (log: string, event: string, field: string) => [
  { hooks: [{ type: "command", command: `printf '%s ' "${event}:$(sed -n 's/.*"${field}":"\\([^"]*\\)".*/\\1/p')" >> ${log}` }] },
];

describe.skipIf(!hasTmux)("hooks in the terminal", () => {
  test("a hook's continue:false stops the run, its reason is shown, and the prompt comes back", async () => {
    userHooks("halt", { UserPromptSubmit: [{ hooks: [{ type: "command", command: `grep -q deploy && echo '{"continue":false,"stopReason":"deploys are frozen"}'; exit 0` }] }] });
    suite.fake.script({ reply: [{ type: "text", text: "Hello there." }] });
    const { pane } = await start({ name: "halt" });
    pane.keys("deploy it", "Enter");
    await pane.until("stopped by a UserPromptSubmit hook: deploys are frozen");
    expect(suite.fake.requests).toHaveLength(0);
    pane.keys("say hello", "Enter");
    await pane.until("Hello there.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("a Notification hook hears idle_prompt once the prompt has waited REIN_IDLE_NOTIFY_MS after a turn", async () => {
    const heard = `p=$(cat); case "$p" in *'"notification_type":"idle_prompt"'*'"message":"rein is waiting for your input"'*) echo idle-heard >&2;; esac; exit 1`;
    userHooks("idle", { Notification: [{ matcher: "idle_prompt", hooks: [{ type: "command", command: heard }] }] });
    suite.fake.script({ reply: [{ type: "text", text: "Done here." }] });
    const { pane } = await start({ name: "idle", env: { REIN_IDLE_NOTIFY_MS: "300" } });
    pane.keys("hi", "Enter");
    await pane.until("Done here.");
    const screen = await pane.until("idle-heard");
    expect(screen).toMatch(/Notification hook \(config\.json: p=.*\) failed: exit 1: idle-heard/);
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);

  test("/clear ends the session as clear and the next one starts as clear; exiting ends it as prompt_input_exit", async () => {
    const log = join(suite.dir.path, "clear.log");
    userHooks("clear", { SessionStart: recording(log, "start", "source"), SessionEnd: recording(log, "end", "reason") });
    suite.fake.script({ reply: [{ type: "text", text: "First answer." }] }, { reply: [{ type: "text", text: "Second answer." }] });
    const { pane } = await start({ name: "clear" });
    pane.keys("one", "Enter");
    await pane.until("First answer.");
    pane.keys("/clear", "Enter");
    // The new session's own line (the / menu's "start a new session" is no sign /clear ran).
    await pane.until(/new session s_\w+/);
    expect(readFileSync(log, "utf8")).toBe("start:startup end:clear ");
    pane.keys("two", "Enter");
    await pane.until("Second answer.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
    expect(existsSync(log) && readFileSync(log, "utf8")).toBe("start:startup end:clear start:clear end:prompt_input_exit ");
  }, 30_000);
});
