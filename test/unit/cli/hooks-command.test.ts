// `rein hooks list` and `rein hooks test` from source in a real process, with hooks that are real
// shell commands in the user's and a project's config: the listing's columns and what an untrusted
// workspace leaves inactive, and for a made-up call what each hook decided and what they decide
// together (a block with its reason, a rewritten input, context for the model, no match).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const MAIN = resolve(import.meta.dir, "../../../src/main.ts");
let dir: TempDir;
let project: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = tempDir("rein-hooks-cmd-");
  project = join(dir.path, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(join(dir.path, "config"), { recursive: true });
  mkdirSync(join(dir.path, "home"), { recursive: true });
  env = { PATH: process.env.PATH ?? "", HOME: join(dir.path, "home"), REIN_CONFIG_DIR: join(dir.path, "config"), REIN_DATA_DIR: join(dir.path, "data") };
  const command = (cmd: string) => [{ type: "command", command: cmd }];
  writeFileSync(
    join(dir.path, "config", "config.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: command(`read -r payload; case "$payload" in *rm\\ -rf*) echo "no rm -rf here" >&2; exit 2;; esac; exit 0`) },
          { matcher: "Write", hooks: command(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/tmp/safe.txt","content":"x"}}}'`) },
        ],
        UserPromptSubmit: [{ hooks: command(`echo "the branch is main"`) }],
      },
    }),
  );
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Edit", hooks: command("exit 0") }] } }));
});
afterAll(() => dir.remove());

async function rein(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, MAIN, "hooks", ...argv], { cwd: project, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

test("list: event, matcher and handler in columns with the file; a project's hook inactive until trusted", async () => {
  const r = await rein("list");
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split("\n");
  const userFile = join(dir.path, "config", "config.json");
  expect(lines.find((l) => l.startsWith("PreToolUse         Bash            "))).toEndWith(`(${userFile})`);
  expect(lines.find((l) => l.startsWith("UserPromptSubmit   *               "))).toContain('echo "the branch is main"');
  const projectLine = lines.find((l) => l.startsWith("PreToolUse         Edit            "))!;
  expect(projectLine).toContain(join(project, ".claude", "settings.json"));
  expect(projectLine).toEndWith("  [inactive: the workspace is not trusted; run with --trust]");
  const trusted = await rein("list", "--json", "--trust");
  const rows = JSON.parse(trusted.stdout).hooks as { event: string; matcher: string; scope: string; active: boolean }[];
  expect(rows.every((row) => row.active)).toBe(true);
  expect(rows.map((row) => row.matcher)).toEqual(expect.arrayContaining(["Bash", "Write", "Edit", "*"]));
});

test("test: a hook that exits 2 blocks, with what it wrote on stderr as the reason", async () => {
  const r = await rein("test", "PreToolUse", "--tool", "Bash", "--input", '{"command":"rm -rf build"}');
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split("\n");
  // the handler (cut), its file, what it decided and what it printed, then the decision together
  expect(lines[0]).toStartWith("command: read -r payload; ");
  expect(lines[0]).toContain(`...  (${join(dir.path, "config", "config.json")}): deny in `);
  expect(lines[0]).toMatch(/ deny in \d+ ms$/);
  expect(lines.slice(1)).toEqual(["  no rm -rf here", "decision: deny", "reason: no rm -rf here"]);
});

test("test: the same hook on a harmless command decides nothing", async () => {
  const r = await rein("test", "PreToolUse", "--tool", "Bash", "--input", '{"command":"ls"}');
  expect(r.code).toBe(0);
  expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("decision: none");
});

test("test: a hook's JSON can allow the call and rewrite its input", async () => {
  const r = await rein("test", "PreToolUse", "--tool", "Write", "--input", '{"file_path":"/etc/passwd","content":"x"}', "--json");
  expect(r.code).toBe(0);
  const tried = JSON.parse(r.stdout);
  expect(tried.merged.decision).toBe("allow");
  expect(JSON.stringify(tried.merged.updatedInput)).toContain("/tmp/safe.txt");
});

test("test: what a UserPromptSubmit hook prints is context for the model", async () => {
  const r = await rein("test", "UserPromptSubmit");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("context for the model: the branch is main");
});

test("test: no hook for that tool says so; a tool event without a tool is a usage error", async () => {
  const none = await rein("test", "PreToolUse", "--tool", "Glob");
  expect(none.code).toBe(0);
  expect(none.stdout).toBe("no active hook matches PreToolUse for Glob\n");
  const untrustedEdit = await rein("test", "PreToolUse", "--tool", "Edit");
  expect(untrustedEdit.stdout).toBe("no active hook matches PreToolUse for Edit\n");
  const bad = await rein("test", "PreToolUse");
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("give one with --tool NAME");
  const unknown = await rein("frob");
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toBe('rein: unknown action "frob" (rein hooks list | test EVENT [--tool NAME] [--input JSON])\n');
});
