import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { instructionFiles, instructionWarnings, systemPrompt } from "../../../src/session/instructions.ts";

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

test("the prompt carries the workspace and date, and the project's AGENTS.md over its CLAUDE.md", () => {
  const root = temp();
  writeFileSync(join(root, "AGENTS.md"), "Use pnpm, never npm.");
  writeFileSync(join(root, "CLAUDE.md"), "CLAUDE FILE");
  const prompt = systemPrompt({ projectRoot: root, cwd: join(root, "pkg"), userInstructions: join(root, "none.md"), now });
  expect(prompt).toContain(`Workspace: ${join(root, "pkg")}`);
  expect(prompt).toContain("2026-11-29");
  expect(prompt).toContain("Use pnpm, never npm.");
  expect(prompt).not.toContain("CLAUDE FILE");
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
  const prompt = systemPrompt({ projectRoot: root, cwd: root, userInstructions: join(root, "missing.md"), now });
  expect(prompt).not.toContain("Instructions from");
  expect(prompt.length).toBeLessThan(1500);
});

test("an instruction file over the cap is cut at the cap, says so in the prompt, and is named in a warning", () => {
  const root = temp();
  const line = "Always run the linter before committing. ";
  writeFileSync(join(root, "AGENTS.md"), `FIRST ${line.repeat(200)}é LAST`);
  const sources = { projectRoot: root, cwd: root, userInstructions: join(root, "none.md"), now, maxBytes: 1000 };
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
  const [file] = instructionFiles({ projectRoot: root, cwd: root, userInstructions: join(root, "none.md") });
  expect(file!.cut).toBe(true);
  expect(Buffer.byteLength(file!.text)).toBe(32 * 1024);
  expect(file!.text).not.toContain("\ufffd");
  expect(instructionWarnings({ projectRoot: root, cwd: root, userInstructions: join(root, "none.md") })).toHaveLength(1);
  writeFileSync(join(root, "AGENTS.md"), "small");
  expect(instructionWarnings({ projectRoot: root, cwd: root, userInstructions: join(root, "none.md") })).toEqual([]);
});
