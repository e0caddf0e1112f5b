import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemPrompt } from "../../../src/session/instructions.ts";

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
