// `rein tools` from source in a real process, with real tool files: a user tool listed with its
// source and file, one that fails to load named with why, a project's tools left off (and said so)
// until trusted, the JSON with the session's own tools, and `init` writing the types and a tsconfig
// without replacing one already there.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const MAIN = resolve(import.meta.dir, "../../../src/main.ts");
let dir: TempDir;
let project: string;
let env: Record<string, string>;
const TOOL = (name: string) => `import * as v from "valibot";
import { defineTool } from "rein/tool";
export default defineTool({
  name: "${name}",
  description: "Says hello to someone\\nsecond line",
  input: v.object({ who: v.string() }),
  run: ({ who }) => \`hello \${who}\`,
});
`;
beforeAll(() => {
  dir = tempDir("rein-tools-cmd-");
  project = join(dir.path, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(dir.path, "config", "tools"), { recursive: true });
  mkdirSync(join(project, ".rein", "tools"), { recursive: true });
  mkdirSync(join(dir.path, "home"), { recursive: true });
  writeFileSync(join(dir.path, "config", "tools", "greet.ts"), TOOL("greet"));
  writeFileSync(join(dir.path, "config", "tools", "broken.ts"), "export default 42;\n");
  writeFileSync(join(project, ".rein", "tools", "deploy.ts"), TOOL("deploy"));
  env = { PATH: process.env.PATH ?? "", HOME: join(dir.path, "home"), REIN_CONFIG_DIR: join(dir.path, "config"), REIN_DATA_DIR: join(dir.path, "data") };
});
afterAll(() => dir.remove());

async function tools(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, MAIN, "tools", ...argv], { cwd: project, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

test("list: a user tool with its file and first line, the one that failed and why, the project's left off", async () => {
  const r = await tools();
  expect(r.code).toBe(0);
  const lines = r.stdout.split("\n");
  const greet = lines.find((l) => l.startsWith("greet "))!;
  expect(greet).toMatch(/^greet +user +.*greet\.ts {2}Says hello to someone$/);
  expect(lines.some((l) => l.startsWith("deploy "))).toBe(false);
  expect(r.stdout).toContain(`\nnot loaded:\n  ${join(dir.path, "config", "tools", "broken.ts")}: the default export is not a tool: export default defineTool({ name, description, input, run })\n`);
  expect(r.stdout).toContain(`project tools in ${join(project, ".rein", "tools")} were not loaded: this workspace is not trusted (run with --trust to load them)`);
});

test("list --trust: the project's tools too, and no warning", async () => {
  const r = await tools("list", "--trust");
  expect(r.stdout.split("\n").find((l) => l.startsWith("deploy "))).toMatch(/^deploy +project +.*deploy\.ts {2}Says hello to someone$/);
  expect(r.stdout).not.toContain("were not loaded");
});

test("--json: every tool with its source, the session's own tools, and the errors", async () => {
  const r = await tools("list", "--json");
  const { tools: rows, errors } = JSON.parse(r.stdout) as { tools: { name: string; source: string; file?: string }[]; errors: unknown[] };
  expect(rows.find((t) => t.name === "greet")).toMatchObject({ source: "user", file: join(dir.path, "config", "tools", "greet.ts") });
  expect(rows.find((t) => t.name === "bash")).toMatchObject({ source: "built-in" });
  expect(rows.filter((t) => t.source === "session").map((t) => t.name)).toEqual(["task", "skill", "memory"]);
  expect(errors).toHaveLength(1);
});

test("init writes the types and a tsconfig; an existing tsconfig is kept", async () => {
  const r = await tools("init", "project");
  const folder = join(project, ".rein", "tools");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`wrote ${join(folder, "rein-tool.d.ts")} and ${join(folder, "tsconfig.json")}\nfor valibot's types in your editor: cd ${folder} && npm install --save-dev valibot\n`);
  expect(readFileSync(join(folder, "rein-tool.d.ts"), "utf8")).toContain("defineTool");
  expect(JSON.parse(readFileSync(join(folder, "tsconfig.json"), "utf8")).compilerOptions.strict).toBe(true);
  writeFileSync(join(dir.path, "config", "tools", "tsconfig.json"), '{"mine": true}\n');
  await tools("init");
  expect(readFileSync(join(dir.path, "config", "tools", "tsconfig.json"), "utf8")).toBe('{"mine": true}\n');
  expect(existsSync(join(dir.path, "config", "tools", "rein-tool.d.ts"))).toBe(true);
});

test("usage: init somewhere else, another action", async () => {
  expect(await tools("init", "global")).toMatchObject({ code: 2, stderr: 'rein: rein tools init takes user or project, not "global"\n' });
  expect(await tools("show")).toMatchObject({ code: 2, stderr: 'rein: unknown action "show" (rein tools list | init [user|project])\n' });
});
