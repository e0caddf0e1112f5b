import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { instructionFiles, instructionWarnings, loadInstructions } from "../../../src/memory/instructions.ts";
import { systemPrompt } from "../../../src/session/system-prompt.ts";

const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), "rein-instr-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const now = new Date("2026-11-29T12:00:00Z");
const NOWHERE = join(tmpdir(), "rein-no-such-config", "AGENTS.md");

test("the prompt carries the workspace and date, and both of a folder's files, AGENTS.md first", () => {
  const root = temp();
  writeFileSync(join(root, "AGENTS.md"), "Use pnpm, never npm.");
  writeFileSync(join(root, "CLAUDE.md"), "CLAUDE FILE");
  const prompt = systemPrompt({ projectRoot: root, cwd: join(root, "pkg"), userInstructions: NOWHERE, now });
  expect(prompt).toContain(`Workspace: ${join(root, "pkg")}`);
  expect(prompt).toContain("2026-11-29");
  expect(prompt.indexOf("Use pnpm, never npm.")).toBeGreaterThan(0);
  expect(prompt.indexOf("CLAUDE FILE")).toBeGreaterThan(prompt.indexOf("Use pnpm, never npm."));
});

test("CLAUDE.md is read when there is no AGENTS.md, and the user's AGENTS.md comes first", () => {
  const root = temp();
  const config = join(root, "config");
  mkdirSync(config);
  writeFileSync(join(root, "CLAUDE.md"), "Project says hi.");
  writeFileSync(join(config, "AGENTS.md"), "User prefers short answers.");
  const prompt = systemPrompt({ projectRoot: root, cwd: root, userInstructions: join(config, "AGENTS.md"), now });
  expect(prompt).toContain("Project says hi.");
  expect(prompt.indexOf("User prefers short answers.")).toBeLessThan(prompt.indexOf("Project says hi."));
});

test("with no instruction files the prompt stays lean", () => {
  const root = temp();
  const prompt = systemPrompt({ projectRoot: root, cwd: root, userInstructions: NOWHERE, now });
  expect(prompt).not.toContain("Instructions from");
  expect(prompt.length).toBeLessThan(1500);
});

test("an instruction file over the cap is cut at the cap, says so in the prompt, and is named in a warning", () => {
  const root = temp();
  const line = "Always run the linter before committing. ";
  writeFileSync(join(root, "AGENTS.md"), `FIRST ${line.repeat(200)}é LAST`);
  const sources = { projectRoot: root, cwd: root, userInstructions: NOWHERE, now, maxBytes: 1000 };
  const prompt = systemPrompt(sources);
  expect(prompt).toContain("FIRST");
  expect(prompt).not.toContain("LAST");
  expect(prompt).toContain("[rein: cut here; the file is");
  const kept = instructionFiles(sources)[0]!;
  expect(Buffer.byteLength(kept.text)).toBeLessThanOrEqual(1000);
  expect(kept).toMatchObject({ cut: true, scope: "project", path: join(root, "AGENTS.md") });
  const warnings = instructionWarnings(sources);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(join(root, "AGENTS.md"));
  expect(warnings[0]).toContain("only its first 1 KiB go to the model");
});

test("the default cap is 32 KiB, and a multi-byte character is never split", () => {
  const root = temp();
  writeFileSync(join(root, "AGENTS.md"), "é".repeat(40_000)); // 80,000 bytes
  const [file] = instructionFiles({ projectRoot: root, cwd: root, userInstructions: NOWHERE });
  expect(file!.cut).toBe(true);
  expect(Buffer.byteLength(file!.text)).toBe(32 * 1024);
  expect(file!.text).not.toContain("\ufffd");
  expect(instructionWarnings({ projectRoot: root, cwd: root, userInstructions: NOWHERE })).toHaveLength(1);
  writeFileSync(join(root, "AGENTS.md"), "small");
  expect(instructionWarnings({ projectRoot: root, cwd: root, userInstructions: NOWHERE })).toEqual([]);
});

test("user files, then each folder from the project root down to the working directory, CLAUDE.local.md last in each", () => {
  const root = temp();
  const config = join(root, "config");
  const cwd = join(root, "a", "b");
  mkdirSync(config);
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(root, "side"));
  writeFileSync(join(config, "AGENTS.md"), "U1");
  writeFileSync(join(config, "CLAUDE.local.md"), "U2");
  writeFileSync(join(root, "CLAUDE.local.md"), "R-local");
  writeFileSync(join(root, "AGENTS.md"), "R-agents");
  writeFileSync(join(root, "a", "CLAUDE.md"), "A-claude");
  writeFileSync(join(cwd, "AGENTS.md"), "B-agents");
  writeFileSync(join(root, "side", "AGENTS.md"), "SIDE");
  const files = instructionFiles({ projectRoot: root, cwd, userInstructions: join(config, "AGENTS.md") });
  expect(files.map((f) => [f.text, f.scope])).toEqual([
    ["U1", "user"],
    ["U2", "user"],
    ["R-agents", "project"],
    ["R-local", "project"],
    ["A-claude", "project"],
    ["B-agents", "project"],
  ]);
});

test("a CLAUDE.md that is a symlink to AGENTS.md, or a copy of its text, is read once", () => {
  const root = temp();
  writeFileSync(join(root, "AGENTS.md"), "Shared rules.");
  symlinkSync(join(root, "AGENTS.md"), join(root, "CLAUDE.md"));
  mkdirSync(join(root, "pkg"));
  writeFileSync(join(root, "pkg", "AGENTS.md"), "Shared rules.");
  const files = instructionFiles({ projectRoot: root, cwd: join(root, "pkg"), userInstructions: NOWHERE });
  expect(files.map((f) => f.path)).toEqual([join(root, "AGENTS.md")]);
});

test("a 5 MB instruction file is read only up to the cap, and the warning names it", () => {
  const root = temp();
  writeFileSync(join(root, "CLAUDE.md"), `HEAD ${"x".repeat(5 * 1024 * 1024)} TAIL`);
  const { files, warnings } = loadInstructions({ projectRoot: root, cwd: root, userInstructions: NOWHERE });
  expect(files[0]!.bytes).toBeGreaterThan(5 * 1024 * 1024);
  expect(Buffer.byteLength(files[0]!.text)).toBeLessThanOrEqual(32 * 1024);
  expect(files[0]!.text).not.toContain("TAIL");
  expect(warnings).toEqual([`${join(root, "CLAUDE.md")} is 5.0 MiB: only its first 32 KiB go to the model; shorten it (or raise REIN_INSTRUCTIONS_MAX_BYTES)`]);
});

describe("@path imports", () => {
  const load = (root: string, home = root, trusted = true) => loadInstructions({ projectRoot: root, cwd: root, userInstructions: NOWHERE, home, trusted });

  test("relative and ~/ imports are expanded in place; code spans and fences are left alone", () => {
    const root = temp();
    const home = temp();
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs", "style.md"), "STYLE: tabs. See @./more.md.");
    writeFileSync(join(root, "docs", "more.md"), "MORE TEXT");
    writeFileSync(join(home, "personal.md"), "PERSONAL");
    writeFileSync(join(root, "AGENTS.md"), ["Read @docs/style.md", "Mine: @~/personal.md", "Code `@docs/more.md` stays", "```", "@docs/more.md", "```", "Ping @alice about it", "Install @types/node and @biomejs/biome"].join("\n"));
    const { files, warnings } = load(root, home);
    const text = files[0]!.text;
    expect(text).toContain("Read STYLE: tabs. See MORE TEXT.");
    expect(text).toContain("Mine: PERSONAL");
    expect(text).toContain("Code `@docs/more.md` stays");
    expect(text).toContain("```\n@docs/more.md\n```");
    expect(text).toContain("Ping @alice about it");
    expect(text).toContain("Install @types/node and @biomejs/biome");
    expect(files[0]!.imports.map((i) => i.path)).toEqual([join(root, "docs", "style.md"), join(root, "docs", "more.md"), join(home, "personal.md")]);
    expect(warnings).toEqual([]);
  });

  test("an import cycle is stopped with a warning, and each file is expanded once on the chain", () => {
    const root = temp();
    writeFileSync(join(root, "AGENTS.md"), "TOP @a.md");
    writeFileSync(join(root, "a.md"), "A @b.md");
    writeFileSync(join(root, "b.md"), "B @a.md");
    const { files, warnings } = load(root);
    expect(files[0]!.text).toBe("TOP A B @a.md");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("is a cycle");
    expect(warnings[0]).toContain(join(root, "b.md"));
  });

  test("imports stop after 4 hops", () => {
    const root = temp();
    writeFileSync(join(root, "AGENTS.md"), "0 @1.md");
    for (let i = 1; i <= 5; i++) writeFileSync(join(root, `${i}.md`), `${i} @${i + 1}.md`);
    const { files, warnings } = load(root);
    expect(files[0]!.text).toBe("0 1 2 3 4 @5.md");
    expect(warnings[0]).toContain("more than 4 imports deep");
  });

  test("a missing file and a sensitive path are not read; each warning says which and why", () => {
    const root = temp();
    const home = temp();
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----");
    writeFileSync(join(root, ".env"), "TOKEN=abc");
    writeFileSync(join(root, "AGENTS.md"), "Keys: @~/.ssh/id_ed25519 env: @.env gone: @nothere.md");
    const { files, warnings } = load(root, home);
    expect(files[0]!.text).toBe("Keys: @~/.ssh/id_ed25519 env: @.env gone: @nothere.md");
    expect(files[0]!.text).not.toContain("BEGIN");
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain("@~/.ssh/id_ed25519 is denied");
    expect(warnings[1]).toContain("@.env is denied");
    expect(warnings[2]).toContain(`names ${join(root, "nothere.md")}, which does not exist`);
    expect(warnings.every((w) => w.startsWith(`${realpathSync(join(root, "AGENTS.md"))}:1: `))).toBe(true);
  });

  test("untrusted, a project file imports only inside the repository; each refusal names the file and the line", () => {
    const root = temp();
    const home = temp();
    const outside = temp();
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs", "style.md"), "STYLE INSIDE @../../x/y.md");
    writeFileSync(join(home, "personal.md"), "PERSONAL OUTSIDE");
    writeFileSync(join(outside, "notes.md"), "NOTES OUTSIDE");
    symlinkSync(join(outside, "notes.md"), join(root, "docs", "linked.md")); // inside by name, outside in fact
    writeFileSync(join(root, "AGENTS.md"), ["Read @docs/style.md", `Home: @~/personal.md`, `Up: @${relative(root, join(outside, "notes.md"))}`, "Link: @docs/linked.md", "Ping @alice"].join("\n"));
    const { files, warnings } = load(root, home, false);
    const text = files[0]!.text;
    expect(text).toContain("STYLE INSIDE");
    for (const secret of ["PERSONAL OUTSIDE", "NOTES OUTSIDE"]) expect(text).not.toContain(secret);
    expect(text).toContain("Home: @~/personal.md");
    expect(text).toContain("Ping @alice");
    const agents = realpathSync(join(root, "AGENTS.md"));
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toStartWith(`${realpathSync(join(root, "docs", "style.md"))}:1: the import @../../x/y.md is not imported: `);
    expect(warnings[1]).toStartWith(`${agents}:2: the import @~/personal.md is not imported: ${join(home, "personal.md")} is outside the repository, and this workspace is not trusted (run with --trust to import it)`);
    expect(warnings[2]).toStartWith(`${agents}:3: `);
    expect(warnings[3]).toStartWith(`${agents}:4: the import @docs/linked.md is not imported: `);
    expect(warnings[3]).toContain("a link to");
    // Trusted, the same file imports from outside.
    expect(load(root, home, true).files[0]!.text).toContain("PERSONAL OUTSIDE");
  });

  test("the user's own instruction file imports from anywhere, trusted or not; a credential never, trusted or not", () => {
    const root = temp();
    const config = temp();
    const home = temp();
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".ssh", "id_rsa"), "PRIVATE KEY TEXT");
    writeFileSync(join(home, "personal.md"), "PERSONAL");
    writeFileSync(join(config, "AGENTS.md"), "Mine: @~/personal.md key: @~/.ssh/id_rsa");
    for (const trusted of [false, true]) {
      const { files, warnings } = loadInstructions({ projectRoot: root, cwd: root, userInstructions: join(config, "AGENTS.md"), home, trusted });
      expect(files[0]!.text).toContain("Mine: PERSONAL");
      expect(files[0]!.text).not.toContain("PRIVATE KEY TEXT");
      expect(warnings).toEqual([expect.stringMatching(/AGENTS\.md:1: the import @~\/\.ssh\/id_rsa is denied: /)]);
    }
  });
});
