// Instruction files as Claude Code and OpenCode read them: ~/.claude/CLAUDE.md, .claude/CLAUDE.md,
// ~/.config/opencode/AGENTS.md; a file imported twice, or imported and read directly, is sent once;
// a file read anywhere in the project brings the instruction files of the folders above it.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { folderInstructions } from "../../../src/memory/folder-instructions.ts";
import { instructionsPrompt, loadInstructions } from "../../../src/memory/instructions.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function world() {
  const root = mkdtempSync(join(tmpdir(), "rein-peer-instr-"));
  dirs.push(root);
  const home = join(root, "home");
  const project = join(root, "project");
  const put = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  const sources = (cwd = project) => ({ projectRoot: project, cwd, userInstructions: join(home, ".config", "rein", "AGENTS.md"), home });
  return { home, project, put, sources };
}
const count = (text: string, what: string) => text.split(what).length - 1;

test("Claude Code's user and project CLAUDE.md files and OpenCode's user AGENTS.md are read", () => {
  const w = world();
  w.put(join(w.home, ".claude", "CLAUDE.md"), "CLAUDE USER RULES");
  w.put(join(w.home, ".config", "opencode", "AGENTS.md"), "OPENCODE USER RULES");
  w.put(join(w.project, ".claude", "CLAUDE.md"), "CLAUDE PROJECT RULES");
  const loaded = loadInstructions(w.sources());
  expect(loaded.files.map((f) => [f.scope, f.text])).toEqual([
    ["user", "CLAUDE USER RULES"],
    ["user", "OPENCODE USER RULES"],
    ["project", "CLAUDE PROJECT RULES"],
  ]);
});

test("CLAUDE.md saying @AGENTS.md beside that AGENTS.md sends its text once; an import read directly later is not sent again", () => {
  const w = world();
  w.put(join(w.project, "AGENTS.md"), "SHARED RULES");
  w.put(join(w.project, "CLAUDE.md"), "@AGENTS.md\n\nAlso: @AGENTS.md");
  w.put(join(w.project, "docs", "style.md"), "STYLE RULES");
  w.put(join(w.project, "sub", "CLAUDE.md"), "@../docs/style.md and @../docs/style.md");
  w.put(join(w.project, "sub", "deeper", "AGENTS.md"), "DEEP");
  const prompt = instructionsPrompt(w.sources(join(w.project, "sub", "deeper"))).join("\n");
  expect(count(prompt, "SHARED RULES")).toBe(1);
  expect(count(prompt, "STYLE RULES")).toBe(1);
  expect(prompt).toContain("[AGENTS.md: its text is in these instructions already]");

  // Imported first (by the root's file), then met as a folder's own file: once.
  w.put(join(w.project, "AGENTS.md"), "@sub/deeper/AGENTS.md");
  expect(count(instructionsPrompt(w.sources(join(w.project, "sub", "deeper"))).join("\n"), "DEEP")).toBe(1);
});

test("a read anywhere in the project brings the folders above it up to the root, not only those below the working directory", async () => {
  const w = world();
  w.put(join(w.project, "AGENTS.md"), "ROOT");
  w.put(join(w.project, "lib", "AGENTS.md"), "LIB RULES");
  w.put(join(w.project, "lib", "util.ts"), "export {}");
  const sources = w.sources(join(w.project, "pkg", "app"));
  mkdirSync(sources.cwd, { recursive: true });
  const loaded = loadInstructions(sources);
  const after = folderInstructions(sources, loaded);
  const heard = await after({ id: "t", name: "read", input: { path: join(w.project, "lib", "util.ts") }, output: "", isError: false } as never, new AbortController().signal);
  expect(heard?.context).toContain("LIB RULES");
  expect(heard?.context).not.toContain("ROOT");
  // Told once: a second read in that folder brings nothing.
  expect(await after({ id: "t2", name: "read", input: { path: join(w.project, "lib", "util.ts") }, output: "", isError: false } as never, new AbortController().signal)).toBeUndefined();
});

test("OpenCode's instructions files are read after the folders'; a repository's reach outside it needs trust; a credential never", () => {
  const w = world();
  w.put(join(w.project, "CONTRIBUTING.md"), "CONTRIBUTING RULES");
  w.put(join(w.home, "notes.md"), "HOME NOTES");
  w.put(join(w.home, ".ssh", "id_rsa"), "PRIVATE KEY");
  const extra = [
    { path: join(w.project, "CONTRIBUTING.md"), scope: "project" as const },
    { path: join(w.home, "notes.md"), scope: "project" as const },
    { path: join(w.home, ".ssh", "id_rsa"), scope: "user" as const },
  ];
  const untrusted = loadInstructions({ ...w.sources(), extra });
  expect(untrusted.files.map((f) => f.text)).toEqual(["CONTRIBUTING RULES"]);
  expect(untrusted.warnings.join("\n")).toContain(`${join(w.home, "notes.md")}: not read: it is outside the repository, and this workspace is not trusted`);
  expect(untrusted.warnings.join("\n")).toContain(`${join(w.home, ".ssh", "id_rsa")}: not read: it is`);
  const trusted = loadInstructions({ ...w.sources(), extra, trusted: true });
  expect(trusted.files.map((f) => f.text)).toEqual(["CONTRIBUTING RULES", "HOME NOTES"]);
});
