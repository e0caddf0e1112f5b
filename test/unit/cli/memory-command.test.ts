// `rein memory` from source in a real process, on real memory files: show prints the file whole
// (and only it, so `> file` copies it), rm removes it, list names each with its type and scope, and
// a name no memory has is an error on stderr with exit 1, never part of stdout.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { memoryDirs, saveMemory } from "../../../src/memory/store.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const MAIN = resolve(import.meta.dir, "../../../src/main.ts");
let dir: TempDir;
let project: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = tempDir("rein-memory-cmd-");
  project = join(dir.path, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(dir.path, "home"), { recursive: true });
  env = { PATH: process.env.PATH ?? "", HOME: join(dir.path, "home"), REIN_CONFIG_DIR: join(dir.path, "config"), REIN_DATA_DIR: join(dir.path, "data") };
});
afterAll(() => dir.remove());

async function memory(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, MAIN, "memory", ...argv], { cwd: project, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
const dirs = () => memoryDirs(join(dir.path, "data"), project);

test("list names each memory with its type and where it counts; none says how to save one", async () => {
  const empty = await memory("list");
  expect(empty.code).toBe(0);
  expect(empty.stdout).toBe(`project memories: ${dirs().project}\nuser memories: ${dirs().user}\n\nno memories yet\n`);
  await saveMemory(dirs(), "project", { name: "db-port", description: "The test database port", type: "project", text: "5433" });
  await saveMemory(dirs(), "user", { name: "short-answers", description: "I like short answers", type: "user", text: "Be brief." });
  const listed = await memory();
  expect(listed.stdout).toContain("\ndb-port  (type project, this project, updated ");
  expect(listed.stdout).toContain("\n  The test database port\n");
  expect(listed.stdout).toContain("\nshort-answers  (type user, every project, updated ");
});

test("show prints the file's path and its whole text", async () => {
  const saved = await saveMemory(dirs(), "project", { name: "lint-first", description: "Lint before tests", type: "feedback", text: "Run the linter before the tests." });
  if (typeof saved === "string") throw new Error(saved);
  const r = await memory("show", "lint-first");
  expect(r.code).toBe(0);
  expect(r.stdout).toStartWith(`${saved.file}\n\n---\n`);
  expect(r.stdout).toContain("Run the linter before the tests.");
});

test("a name no memory has: exit 1, one rein: line on stderr, nothing on stdout", async () => {
  for (const action of ["show", "rm", "edit"]) {
    const r = await memory(action, "nothing-like-it");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`rein: no memory named "nothing-like-it" in ${dirs().project} or ${dirs().user}; rein memory list names them\n`);
  }
});

test("rm removes the file and says which", async () => {
  const saved = await saveMemory(dirs(), "project", { name: "to-remove", description: "Goes away", type: "project", text: "temporary" });
  if (typeof saved === "string") throw new Error(saved);
  const r = await memory("rm", "to-remove");
  expect(r).toMatchObject({ code: 0, stdout: `removed to-remove (${saved.file})\n` });
  expect(existsSync(saved.file)).toBe(false);
});

test("an unknown action or a missing name is a usage error", async () => {
  expect(await memory("forget")).toMatchObject({ code: 2, stderr: 'rein: unknown action "forget": rein memory list | show NAME | edit NAME | rm NAME\n' });
  expect(await memory("show")).toMatchObject({ code: 2, stderr: "rein: rein memory show needs the memory's name (rein memory list names them)\n" });
});
