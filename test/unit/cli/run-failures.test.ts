// How a command line that fails before any session ends, run from source in a real process: exit 2
// for usage, configuration and key problems, 1 for a fault of the machine (a file where rein's data
// folder should be), one `rein:` line on stderr and never a stack trace, and the closing result
// that json, stream-json and Claude Code's formats promise on stdout, carrying that same line.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const MAIN = resolve(import.meta.dir, "../../../src/main.ts");
let dir: TempDir;
let base: Record<string, string>;
beforeAll(() => {
  dir = tempDir("rein-run-fail-");
  mkdirSync(join(dir.path, "home"), { recursive: true });
  base = { PATH: process.env.PATH ?? "", HOME: join(dir.path, "home"), ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: "http://127.0.0.1:9", REIN_CONFIG_DIR: join(dir.path, "config"), REIN_DATA_DIR: join(dir.path, "data") };
});
afterAll(() => dir.remove());

async function rein(argv: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter((e): e is [string, string] => e[1] !== undefined));
  const proc = Bun.spawn([process.execPath, MAIN, ...argv], { cwd: dir.path, env: merged, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
const oneLine = (stderr: string) => {
  expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(stderr).toStartWith("rein: ");
  expect(stderr).not.toMatch(/\n\s+at /);
  return stderr.trimEnd().slice("rein: ".length);
};

test("a usage error: exit 2, one line; json's closing result carries it with no session", async () => {
  const text = await rein(["-p", "hi", "--max-turns", "zero"]);
  expect(text.code).toBe(2);
  expect(oneLine(text.stderr)).toBe('--max-turns expects a positive integer, got "zero"');
  expect(text.stdout).toBe("");
  const json = await rein(["-p", "hi", "--output-format", "json", "--max-turns", "zero"]);
  expect(json.code).toBe(2);
  expect(JSON.parse(json.stdout)).toEqual({
    type: "result",
    session_id: null,
    seq: 0,
    status: "error",
    text: "",
    usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    cost_usd: 0,
    turns: 0,
    duration_ms: 0,
    error: '--max-turns expects a positive integer, got "zero"',
  });
});

test("Claude Code's formats close with Claude Code's result, also given as --output-format=FORMAT", async () => {
  const r = await rein(["-p", "hi", "--output-format=claude-json", "--bogus-flag"]);
  expect(r.code).toBe(2);
  const result = JSON.parse(r.stdout);
  expect(result).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true, session_id: null, num_turns: 0 });
  expect(result.errors).toEqual([oneLine(r.stderr)]);
});

test("no key for the model's provider: exit 2 naming the variable, before anything is sent", async () => {
  const r = await rein(["-p", "hi", "--output-format", "stream-json"], { ANTHROPIC_API_KEY: undefined });
  expect(r.code).toBe(2);
  expect(oneLine(r.stderr)).toContain("ANTHROPIC_API_KEY");
  const lines = r.stdout.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({ type: "result", session_id: null, status: "error" });
});

test("a fallback model that cannot run: exit 2 at start, naming the flag", async () => {
  const r = await rein(["-p", "hi", "--fallback-model", "openai/gpt-5"]);
  expect(r.code).toBe(2);
  expect(oneLine(r.stderr)).toBe("--fallback-model openai/gpt-5: no API key for provider openai: set OPENAI_API_KEY (export OPENAI_API_KEY=...)");
});

test("a config file that is not JSON: exit 2 naming the file", async () => {
  mkdirSync(join(dir.path, "bad-config"), { recursive: true });
  writeFileSync(join(dir.path, "bad-config", "config.json"), "{ not json");
  const r = await rein(["-p", "hi"], { REIN_CONFIG_DIR: join(dir.path, "bad-config") });
  expect(r.code).toBe(2);
  expect(oneLine(r.stderr)).toContain(join(dir.path, "bad-config", "config.json"));
});

test("a file where the data folder should be: exit 1 with the fault's line, in json's result too", async () => {
  writeFileSync(join(dir.path, "not-a-folder"), "x");
  const r = await rein(["-p", "hi", "--output-format", "json"], { REIN_DATA_DIR: join(dir.path, "not-a-folder", "rein") });
  expect(r.code).toBe(1);
  const line = oneLine(r.stderr);
  expect(line).toBe(`cannot create or open ${join(dir.path, "not-a-folder", "rein")}: a part of the path is a file, not a folder (ENOTDIR); move that file out of the way, or set REIN_DATA_DIR to a writable folder`);
  expect(JSON.parse(r.stdout).error).toBe(line);
  const listing = await rein(["sessions", "list"], { REIN_DATA_DIR: join(dir.path, "not-a-folder") });
  expect(listing.code).toBe(1);
  expect(oneLine(listing.stderr)).toStartWith(`cannot create or open ${join(dir.path, "not-a-folder")}: a file is where the folder should be (EEXIST)`);
});

test("a typo of a command and unquoted words are usage errors; the terminal without a terminal says how to script", async () => {
  const typo = await rein(["doctr"]);
  expect(typo.code).toBe(2);
  expect(oneLine(typo.stderr)).toBe('unknown command "doctr" (did you mean doctor?)');
  const unknown = await rein(["frobnicate", "now"]);
  expect(unknown.code).toBe(2);
  expect(oneLine(unknown.stderr)).toBe('unexpected argument "now" (quote the whole prompt: rein "...")');
  const terminal = await rein([]);
  expect(terminal.code).toBe(2);
  expect(oneLine(terminal.stderr)).toBe('the interactive mode needs a terminal on stdin and stdout; for scripts use: rein -p "PROMPT"');
});

test("--version and --help answer without a configuration", async () => {
  const version = await rein(["--version"], { REIN_CONFIG_DIR: join(dir.path, "bad-config") });
  expect(version.code).toBe(0);
  expect(version.stdout).toMatch(/^rein \d+\.\d+\.\d+/);
  const help = await rein(["--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("rein -p");
});
