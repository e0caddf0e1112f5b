// The terminal's `/` menu and its narrow widths in a real terminal (tmux, the compiled binary, the
// fake model; issue 31 items 27 and 28): `/` lists every command, the user's own included, and each
// key narrows the list; ↑/↓, Tab, Enter and Esc; at 30 and 40 columns the status line and the
// start's notices wrap between words, never inside one.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { terminalSuite } from "../support/terminal-start.ts";
import { hasTmux, type Pane } from "../support/tmux.ts";

const suite = terminalSuite("terminal-menu");

/** The rows from the one starting with `first` to the next one holding `last`, joined with a space (a row broken between words joins back whole). */
function rowsOf(screen: string, first: string, last: string): string {
  const rows = screen.split("\n");
  const from = rows.findIndex((row) => row.startsWith(first));
  const to = rows.findIndex((row, i) => i >= from && row.includes(last));
  return rows.slice(from, to + 1).map((row) => row.trim()).join(" ");
}

/** Waits until the screen no longer shows `pattern` (a terminal has no event to await). */
async function gone(pane: Pane, pattern: RegExp): Promise<void> {
  for (let i = 0; i < 250 && pattern.test(pane.screen({ joined: true })); i++) await Bun.sleep(40);
  expect(pane.screen({ joined: true })).not.toMatch(pattern);
}
const { start } = suite;

describe.skipIf(!hasTmux)("the / menu and narrow widths", () => {
  test("/ lists every command, narrows as you type, and Tab, Enter, ↑/↓ and Esc do what the menu says", async () => {
    const config = join(suite.dir.path, "menu-config");
    mkdirSync(join(config, "commands"), { recursive: true });
    await Bun.write(join(config, "commands", "greet.md"), "---\ndescription: Says hello to someone\n---\nSay hello to $ARGUMENTS.\n");
    const { pane } = await start({ name: "menu", env: { REIN_CONFIG_DIR: config }, rows: 30 });

    pane.keys("/");
    const all = await pane.until(/\d+ commands · \d+ below/);
    expect(all).toMatch(/› \/help\s+this list/);
    // Scrolled with ↓, the list reaches what one screen did not show: the last built-in, then the user's own.
    for (let i = 0; i < 19; i++) pane.keys("Down");
    const end = await pane.until(/› \/greet\s+Says hello to someone \(user command\)/);
    expect(end).toContain("/quit");

    // Each key narrows it: /t lists the commands starting with t first, then those containing it.
    pane.keys("t");
    const t = await pane.until(/› \/tools\s+the tools the model has\n\s+\/tasks \[N\]/);
    expect(t).toMatch(/\/tasks \[N\][^\n]*\n\s+\/compact/);
    expect(t).not.toMatch(/\/help\s+this list/);
    expect(t).toContain("/greet");
    pane.keys("oo", "Enter");
    await pane.until(/read\s/);

    // Tab fills the chosen command in; a line with a space closes the menu.
    pane.keys("/gr");
    await pane.until("› /greet");
    pane.keys("Tab");
    await pane.until(/› \/greet $/m);
    expect(pane.screen()).not.toContain("Says hello to someone");

    // Esc closes the menu for what is typed; typing opens it again.
    pane.keys("C-u", "/un");
    await pane.until(/› \/undo/);
    pane.keys("Escape");
    await gone(pane, /› \/undo/);
    pane.keys("d");
    await pane.until(/› \/undo/);
    pane.keys("C-u", "C-d");
    await pane.until("EXIT=0");
  }, 60_000);

  for (const columns of [30, 40]) {
    test(`at ${columns} columns the status line and the start's notices wrap between words`, async () => {
      suite.fake.script({ reply: [{ type: "text", text: "ok" }], usage: { input_tokens: 1234, output_tokens: 56 } });
      const { pane } = await start({ name: `narrow-${columns}`, columns, ready: "Ctrl-D" });
      // The start's notice: its rows, joined again with a space, are the line as written.
      const help = "/help lists commands · Esc or Ctrl-C stops a turn, Ctrl-C twice at the prompt exits, Ctrl-D exits";
      expect(rowsOf(pane.screen(), "/help lists", "Ctrl-D exits")).toBe(help);
      pane.keys("hello there", "Enter");
      await pane.until(/\$0\.\d{4}/);
      const screen = pane.screen();
      // Every row after the first paint's (which is drawn before rein knows the width) fits.
      const rows = screen.split("\n");
      for (const row of rows.slice(rows.findIndex((r) => r.startsWith("session ")))) expect(Bun.stringWidth(row)).toBeLessThan(columns);
      expect(rowsOf(screen, "build · ", "$0.")).toMatch(/^build · claude-sonnet-5-5 · context \d+% of 1M · session: in 1234 \(cache read 0, write 0\) · out 56 · \$0\.\d{4}$/);
      pane.keys("C-d");
      await pane.until("EXIT=0");
    }, 30_000);
  }
});
