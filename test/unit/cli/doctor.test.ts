// `rein doctor` from source in a real process, against the fake API on 127.0.0.1 and real files:
// a healthy setup passes every line, and each problem it knows fails its own line with what to do
// (no key, a broken memory file, a rule no tool has, a config that warns), while what is only
// information stays ok (the trash, instruction imports, a path under ~).
import { afterAll, beforeAll, beforeEach, afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { memoryDirs } from "../../../src/memory/store.ts";
import { Store } from "../../../src/session/store.ts";
import { startFakeAnthropic, type FakeServer } from "../../fake/server.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const MAIN = resolve(import.meta.dir, "../../../src/main.ts");
let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());

let dir: TempDir;
let project: string;
let env: Record<string, string>;
beforeEach(() => {
  dir = tempDir("rein-doctor-");
  project = join(dir.path, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(dir.path, "home"), { recursive: true });
  env = {
    PATH: process.env.PATH ?? "",
    HOME: join(dir.path, "home"),
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: fake.url,
    REIN_CONFIG_DIR: join(dir.path, "config"),
    REIN_DATA_DIR: join(dir.path, "data"),
    REIN_SANDBOX: "off",
  };
});
afterEach(() => dir.remove());

async function doctor(extra: Record<string, string | undefined> = {}): Promise<{ code: number; lines: Map<string, string[]>; stdout: string }> {
  const merged = Object.fromEntries(Object.entries({ ...env, ...extra }).filter((e): e is [string, string] => e[1] !== undefined));
  const proc = Bun.spawn([process.execPath, MAIN, "doctor"], { cwd: project, env: merged, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, , code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  // `ok   name          detail` / `FAIL name          detail`, by name
  const lines = new Map<string, string[]>();
  for (const line of stdout.trimEnd().split("\n")) {
    const name = line.slice(5, 18).trim();
    lines.set(name, [...(lines.get(name) ?? []), line]);
  }
  return { code, lines, stdout };
}
const config = (value: unknown) => {
  mkdirSync(join(dir.path, "config"), { recursive: true });
  writeFileSync(join(dir.path, "config", "config.json"), JSON.stringify(value));
};

test("a healthy setup: every line ok, the API asked once, exit 0", async () => {
  const r = await doctor();
  expect(r.code).toBe(0);
  expect(r.stdout).not.toContain("FAIL");
  expect(r.lines.get("provider key")).toEqual([`ok   provider key  set; API at ${fake.url}`]);
  expect(r.lines.get("api")?.[0]).toStartWith("ok   api");
  expect(r.lines.get("database")).toEqual([`ok   database      ${join(dir.path, "data", "rein.db")} opens (WAL)`]);
  expect(r.lines.get("db integrity")).toEqual(["ok   db integrity  PRAGMA quick_check: ok"]);
  expect(r.lines.get("sessions")).toEqual(["ok   sessions      0 (0 in the trash)"]);
  expect(r.lines.get("config")).toEqual(["ok   config        no config files (defaults)"]);
  expect(r.lines.get("model")).toEqual(["ok   model         claude-sonnet-5-5"]);
  expect(r.lines.get("instructions")).toEqual(["ok   instructions  none found (AGENTS.md, CLAUDE.md, CLAUDE.local.md)"]);
  expect(r.lines.get("extensions")).toEqual(["ok   extensions    plugins, agents, skills, commands and hooks loaded as written"]);
  expect(fake.requests.filter((q) => q.method === "GET" && q.path === "/v1/models").length).toBeGreaterThan(0);
});

test("no key: the provider key fails with how to set it, the API is not asked, exit 1", async () => {
  const before = fake.requests.length;
  const r = await doctor({ ANTHROPIC_API_KEY: undefined });
  expect(r.code).toBe(1);
  expect(r.lines.get("provider key")).toEqual(["FAIL provider key  missing: export ANTHROPIC_API_KEY=... or set apiKey in the user config"]);
  expect(r.lines.has("api")).toBe(false);
  expect(fake.requests.length).toBe(before);
});

const line = (ok: boolean, name: string, detail: string) => `${ok ? "ok  " : "FAIL"} ${name.padEnd(13)} ${detail}`;

test("each problem fails its own line with its remedy; the trash and the instructions are information", async () => {
  const { store } = Store.open(join(dir.path, "data", "rein.db"));
  for (const id of ["s_one", "s_two", "s_three"]) store.createSession({ id, cwd: project, model: "m", settings: null });
  store.trashSession("s_two");
  store.close();
  const dirs = memoryDirs(join(dir.path, "data"), project);
  mkdirSync(dirs.project, { recursive: true });
  writeFileSync(join(dirs.project, "good.md"), "---\nname: good\ndescription: a fine memory\ntype: project\n---\nkeep this\n");
  writeFileSync(join(dirs.project, "broken.md"), "no front matter at all\n");
  config({ permissions: { allow: ["frobnicate"] } });
  writeFileSync(join(project, "notes.md"), "the notes\n");
  writeFileSync(join(project, "AGENTS.md"), "# rules\n@notes.md\n");
  const r = await doctor();
  expect(r.code).toBe(1);
  // live sessions, and the trashed one beside them
  expect(r.lines.get("sessions")).toEqual([line(true, "sessions", "2 (1 in the trash; rein sessions prune empties what is older than 30 days)")]);
  expect(r.lines.get("memory")).toEqual([
    line(false, "memory", `1 in ${dirs.project}, 0 in ${dirs.user}; ${join(dirs.project, "broken.md")}: it does not start with a front matter block (a line ---) (rein memory edit or rm it)`),
  ]);
  const rules = r.lines.get("rules") ?? [];
  expect(rules).toHaveLength(1);
  expect(rules[0]).toStartWith(line(false, "rules", `${join(dir.path, "config", "config.json")}: "frobnicate" is none of rein's permissions`));
  expect(r.lines.get("config")).toEqual([line(true, "config", `read ${join(dir.path, "config", "config.json")}`)]);
  expect(r.lines.get("instructions")).toEqual([line(true, "instructions", "AGENTS.md (+1 import); each file capped at 32 KiB")]);
  // what passed still says so
  expect(r.lines.get("db integrity")).toEqual([line(true, "db integrity", "PRAGMA quick_check: ok")]);
});

test("a user instruction file under ~ is shown from ~, and REIN_INSTRUCTIONS_MAX_BYTES sets the cap shown", async () => {
  const configDir = join(dir.path, "home", ".config", "rein");
  mkdirSync(configDir, { recursive: true });
  writeFileSync(join(configDir, "AGENTS.md"), "be brief\n");
  const r = await doctor({ REIN_CONFIG_DIR: configDir, REIN_INSTRUCTIONS_MAX_BYTES: "4096" });
  expect(r.lines.get("instructions")).toEqual([line(true, "instructions", "~/.config/rein/AGENTS.md; each file capped at 4 KiB")]);
});

test("a model of another provider is checked as that provider, not as Anthropic", async () => {
  config({ model: "openai/gpt-5" });
  const r = await doctor();
  expect(r.lines.has("provider key")).toBe(false);
  expect(r.lines.get("model")).toEqual(["ok   model         openai/gpt-5"]);
  expect(r.stdout).toMatch(/FAIL openai .*OPENAI_API_KEY/);
  expect(r.code).toBe(1);
});
