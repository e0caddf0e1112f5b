// /undo and /redo in a real terminal: tmux runs the compiled binary against the fake model; the
// assertions read the captured screen and the workspace's files.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const suite = terminalSuite("terminal-undo");
const { start } = suite;

/** Matches once `text` has shown twice. */
const second = (text: string) => {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`${escaped}[\\s\\S]*${escaped}`);
};

describe.skipIf(!hasTmux)("/undo and /redo in the terminal", () => {
  test("offer the code, the conversation or both; each puts back its part and /redo reverses it", async () => {
    const { pane, work } = await start({ name: "undo", args: "--permission-mode auto" });
    writeFileSync(join(work, "a.txt"), "one\n");
    const a = () => readFileSync(join(work, "a.txt"), "utf8");
    suite.fake.script({ reply: [{ type: "tool_use", name: "bash", input: { command: "echo two > a.txt" } }] }, { reply: [{ type: "text", text: "Changed it." }] });
    pane.keys("change a", "Enter");
    await pane.until("Changed it.");
    expect(a()).toBe("two\n");

    // /help says what it offers.
    pane.keys("/help", "Enter");
    expect(await pane.until("[code|conversation]")).toMatch(/\/undo \[code\|conversation\] \[N\]\s+undo the last turn \(or N\): code and conversation, or only one/);
    pane.keys("/undo code", "Enter");
    expect(await pane.until("file put back")).toMatch(/code of 1 turn undone: 1 file put back\n\s*a\.txt/);
    expect(a()).toBe("one\n");
    expect(pane.screen()).not.toContain("conversation cut back");

    pane.keys("/redo", "Enter");
    await pane.until("changed again");
    expect(a()).toBe("two\n");

    pane.keys("/undo conversation", "Enter");
    await pane.until('conversation cut back to before "change a"');
    expect(a()).toBe("two\n");
    pane.keys("/redo", "Enter");
    await pane.until('conversation put back from "change a"');

    // The screen keeps what came before (commands are not echoed): the second time a line shows.
    pane.keys("/undo", "Enter");
    expect(await pane.until(second('conversation cut back to before "change a"'))).toMatch(/code of 1 turn undone: 1 file put back\n\s*a\.txt\nconversation cut back to before "change a" \(\d+ messages\)\n\S*\s*(?:⏵⏵ auto on \(shift\+tab to cycle\)\s*)?$/);
    expect(a()).toBe("one\n");

    // A change made since the turn: the undo of its redo refuses and names the file.
    pane.keys("/redo", "Enter");
    await pane.until(second('conversation put back from "change a"'));
    expect(a()).toBe("two\n");
    writeFileSync(join(work, "a.txt"), "mine\n");
    pane.keys("/undo code", "Enter");
    expect(await pane.until("--force overwrites them")).toMatch(/a file was changed after the turn left it[^\n]*:\n\s*a\.txt/);
    expect(a()).toBe("mine\n");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 60_000);
});
