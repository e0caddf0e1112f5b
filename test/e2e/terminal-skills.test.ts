// Commands and skills in the interactive terminal (tmux, the compiled binary, the fake model): the
// session expands `/name args` as print mode does, and /help lists them with where they came from.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const suite = terminalSuite("terminal-skills");
const { start } = suite;

function put(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

type Body = { messages: { role: string; content: { type: string; text?: string }[] }[] };
const lastUserText = () => (suite.fake.requests.at(-1)!.body as Body).messages.at(-1)!.content.find((b) => b.type === "text")?.text ?? "";

describe.skipIf(!hasTmux)("commands and skills in the terminal", () => {
  test("/help lists a command and a skill; typing them sends their expansion", async () => {
    const name = "cmds";
    put(join(suite.dir.path, name, ".claude/commands/fix.md"), "---\ndescription: Fix an issue\nargument-hint: [issue]\n---\nFix issue $1 now.\n");
    put(join(suite.dir.path, `${name}-config`, "skills/notes/SKILL.md"), "---\nname: notes\ndescription: Keep notes\n---\nWrite notes about $ARGUMENTS.\n");
    put(join(suite.dir.path, `${name}-config`, "plugins/kit/commands/hello.md"), "---\ndescription: Say hello\n---\nHello $ARGUMENTS\n");
    // A workspace with .claude/ is asked about once (terminal-trust.test.ts); this one comes trusted.
    const { pane } = await start({ name, args: "--trust" });
    pane.keys("/help", "Enter");
    const help = await pane.until("Keep notes");
    expect(help).toMatch(/\/fix \[issue\]\s+Fix an issue \(project command\)/);
    expect(help).toMatch(/\/notes\s+Keep notes \(user skill\)/);
    expect(help).toMatch(/\/kit:hello\s+Say hello \(plugin kit command\)/);

    suite.fake.script({ reply: [{ type: "text", text: "Fixed it." }] }, { reply: [{ type: "text", text: "Noted." }] });
    pane.keys("/fix 42", "Enter");
    await pane.until("Fixed it.");
    expect(lastUserText()).toBe("Fix issue 42 now.\n");
    pane.keys("/notes the parser", "Enter");
    await pane.until("Noted.");
    expect(lastUserText()).toContain("Write notes about the parser.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 30_000);
});
