import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { completeSlash, loadCustomCommands } from "../../../../src/skills/commands.ts";
import { BUILTINS, runsWhileBusy } from "../../../../src/cli/term/slash.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("/quit, the other name of /exit", () => {
  test("is a built-in: a custom quit.md is reported as a clash, like exit.md", () => {
    const project = mkdtempSync(join(tmpdir(), "rein-slash-"));
    dirs.push(project);
    for (const name of ["quit", "exit"]) writeFileSync(join(project, `${name}.md`), "bye");
    const { commands, problems } = loadCustomCommands([{ dir: project, source: "project" }], BUILTINS.map((b) => b.name));
    expect(commands).toEqual([]);
    expect(problems.map((p) => p.slice(project.length + 1))).toEqual([
      "exit.md: /exit is a built-in command and cannot be replaced; rename the file.",
      "quit.md: /quit is a built-in command and cannot be replaced; rename the file.",
    ]);
  });

  test("runs while a turn runs and completes, as /exit does", () => {
    expect(runsWhileBusy("/quit")).toBe(runsWhileBusy("/exit"));
    expect(runsWhileBusy("/quit")).toBe(true);
    expect(completeSlash("/q", BUILTINS.map((b) => b.name))).toEqual(["/quit"]);
  });
});
