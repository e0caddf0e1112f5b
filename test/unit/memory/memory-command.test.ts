// `# note` in the terminal and `rein memory list | show | edit | rm`, run as a real process from source.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { quickMemoryLine } from "../../../src/cli/term/quick-memory.ts";
import { memoryDirs } from "../../../src/memory/store.ts";
import { tempDir } from "../../support/temp-dir.ts";

const dir = tempDir("rein-memcli-");
afterAll(() => dir.remove());
const project = join(dir.path, "project");
const data = join(dir.path, "data");
mkdirSync(project);
const MAIN = join(import.meta.dir, "../../../src/main.ts");
const ctx = { paths: { dataDir: data } as never, projectRoot: project };

async function rein(args: string[], env: Record<string, string> = {}) {
  const run = Bun.spawn([process.execPath, MAIN, "memory", ...args], {
    cwd: project,
    env: { PATH: process.env.PATH!, HOME: join(dir.path, "home"), REIN_DATA_DIR: data, REIN_CONFIG_DIR: join(dir.path, "config"), NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  return { stdout, stderr, code };
}

test("# saves a project memory, #~ a user one; ## and #tag stay prompts; a secret is refused", async () => {
  expect(await quickMemoryLine("## Heading", ctx)).toBeUndefined();
  expect(await quickMemoryLine("#tag", ctx)).toBeUndefined();
  expect(await quickMemoryLine("# Always use pnpm, never npm.", ctx)).toContain("remembered for this project: Always use pnpm, never npm");
  expect(await quickMemoryLine("#~ I like terse answers", ctx)).toContain("remembered for every project: I like terse answers");
  expect(await quickMemoryLine("# the password is Hunter22!", ctx)).toContain("looks like a secret");
  const dirs = memoryDirs(data, project);
  expect(readFileSync(join(dirs.project, "MEMORY.md"), "utf8")).toBe("- [Always use pnpm, never npm](always-use-pnpm-never-npm.md) (project): Always use pnpm, never npm.\n");
  expect(readFileSync(join(dirs.user, "MEMORY.md"), "utf8")).toContain("(user): I like terse answers");
});

test("rein memory list, show, edit (a bad edit is undone) and rm", async () => {
  const listed = await rein(["list"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain("Always use pnpm, never npm  (type project, this project, updated");
  expect(listed.stdout).toContain("I like terse answers  (type user, every project, updated");

  const shown = await rein(["show", "always-use-pnpm-never-npm"]);
  expect(shown.stdout).toContain("Always use pnpm, never npm.\n");

  const editor = join(dir.path, "edit.sh");
  writeFileSync(editor, `#!/bin/sh\nsed -i "s/never npm\\\\./never npm or yarn./; s/^type: .*/type: $MEMTYPE/" "$1"\n`);
  chmodSync(editor, 0o755);
  const bad = await rein(["edit", "Always use pnpm, never npm"], { EDITOR: editor, MEMTYPE: "opinion" });
  expect(bad.code).toBe(1);
  expect(bad.stdout).toBe("not saved: its front matter type is wrong: one of user, project, feedback, reference; the memory is as it was\n");
  const good = await rein(["edit", "Always use pnpm, never npm"], { EDITOR: editor, MEMTYPE: "feedback" });
  expect(good.code).toBe(0);
  expect((await rein(["show", "always-use-pnpm-never-npm"])).stdout).toContain("never npm or yarn.");
  expect(readFileSync(join(memoryDirs(data, project).project, "MEMORY.md"), "utf8")).toContain("(feedback)");

  expect((await rein(["rm", "always-use-pnpm-never-npm"])).code).toBe(0);
  expect((await rein(["show", "always-use-pnpm-never-npm"])).code).toBe(1);
  const usage = await rein(["show"]);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain("rein memory show needs the memory's name");
}, 60_000);

test("/memory lists the instruction files read, with imports and what was cut, and the memories", async () => {
  const { memoryReport } = await import("../../../src/cli/term/quick-memory.ts");
  writeFileSync(join(project, "AGENTS.md"), "Read @missing.md and @notes.md");
  writeFileSync(join(project, "notes.md"), "notes");
  const report = memoryReport({ paths: { dataDir: data, configDir: join(dir.path, "config"), userInstructions: join(dir.path, "config", "AGENTS.md") }, projectRoot: project, cwd: project, env: {} } as never);
  expect(report).toContain(`${join(project, "AGENTS.md")} (project, 1 import)`);
  expect(report).toContain(`! ${join(project, "AGENTS.md")}:1: the import @missing.md names ${join(project, "missing.md")}, which does not exist`);
  expect(report).toContain("I like terse answers (type user, every project)");
  expect(report).not.toMatch(/\((project|user), \1\)/);
});

test("an edit that renames a memory moves it: one file, one index line, under the new name", async () => {
  const { editMemory } = await import("../../../src/cli/memory-command.ts");
  const { saveMemory, listMemories } = await import("../../../src/memory/store.ts");
  const dirs = memoryDirs(join(dir.path, "rename-data"), project);
  const saved = await saveMemory(dirs, "project", { name: "Old name", description: "d", type: "project", text: "A fact." });
  if (typeof saved === "string") throw new Error(saved);
  let lent = 0;
  const edited = await editMemory(dirs, saved.file, { EDITOR: "sed -i 's/^name: .*/name: \"New name\"/'" }, (run) => (lent++, run()));
  expect(edited).toEqual({ saved: true, message: `saved New name (${join(dirs.project, "new-name.md")})` });
  expect(lent).toBe(1);
  expect(listMemories(dirs).memories.map((m) => m.name)).toEqual(["New name"]);
  expect(readFileSync(join(dirs.project, "MEMORY.md"), "utf8")).toBe("- [New name](new-name.md) (project): d\n");
});
