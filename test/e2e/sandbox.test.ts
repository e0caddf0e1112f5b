// The kernel sandbox as the compiled binary applies it: a session's setting travels with the
// session, not through rein's environment, so a session created over HTTP in auto mode runs bash
// exactly as `rein -p --permission-mode auto` does; a command the defaults allow as read-only runs
// with nothing writable. Skipped where bubblewrap cannot create a sandbox.
import { expect, test } from "bun:test";
import { statSync, utimesSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { bash, resultText, text, toolResultsOf, type World, world } from "./harness.ts";
import { sandboxAvailable } from "../../tools/lib/sandbox.ts";

const available = sandboxAvailable().ok;
const git = Bun.which("git");
const TOKEN = "e2e-sandbox-token-of-32-chars-ok";
/** pid 1 of the sandbox is its `rein-sandbox` shell; outside it is the machine's init. */
const PROBE = "tr '\\0' ' ' < /proc/1/cmdline; echo; touch written-by-the-command && echo wrote";

function script(w: World): void {
  w.fake.script({ reply: [bash(PROBE, "toolu_probe")] }, { reply: [text("done")] });
}

test.concurrent.skipIf(!available)("print mode in auto mode runs bash in the sandbox, the workspace writable", async () => {
  await using w = await world();
  script(w);
  const r = await w.run(["-p", "probe", "--permission-mode", "auto"]);
  expect(r.code).toBe(0);
  const output = resultText(toolResultsOf(w.fake.requests[1])[0]);
  expect(output).toContain("rein-sandbox");
  expect(output).toContain("wrote");
});

test.concurrent.skipIf(!available)("a session created over HTTP in auto mode runs bash in the same sandbox", async () => {
  await using w = await world();
  script(w);
  // The server itself starts in the default mode: only the session asks for auto.
  const rein = w.start(["--serve", "--port", "0"], { env: { REIN_SERVER_TOKEN: TOKEN } });
  await rein.waitForStdout((out) => out.includes("\n"), "the server's URL on stdout");
  const url = rein.stdout.split("\n")[0]!;
  const call = (path: string, body: unknown) =>
    fetch(`${url}${path}`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body) });
  const created = await call("/sessions", { permission_mode: "auto" });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await call(`/sessions/${id}/prompt?wait=1`, { text: "probe" })).status).toBe(200);

  const output = resultText(toolResultsOf(w.fake.requests[1])[0]);
  expect(output).toContain("rein-sandbox");
  expect(output).toContain("wrote");
});

test.concurrent.skipIf(!available || !git)("in the default mode a read-only command writes nothing, not even git's index; doctor says so", async () => {
  await using w = await world();
  // `git status` rewrites a stale index when it can: a write made by a command the defaults allow.
  await rm(w.path(".git"), { recursive: true });
  const gitIn = (...args: string[]) => Bun.spawnSync([git!, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: w.cwd });
  gitIn("init", "-q");
  await writeFile(w.path("f.txt"), "a\n");
  gitIn("add", "f.txt");
  gitIn("commit", "-qm", "first");
  const hourAgo = Date.now() / 1000 - 3600;
  utimesSync(w.path("f.txt"), hourAgo - 3600, hourAgo - 3600); // stat data no longer what the index holds
  utimesSync(w.path(".git", "index"), hourAgo, hourAgo);
  const before = statSync(w.path(".git", "index")).mtimeMs;

  w.fake.script({ reply: [bash("git status --short", "toolu_ro")] }, { reply: [text("done")] });
  const r = await w.run(["-p", "look"]);
  expect(r.code).toBe(0);
  expect(toolResultsOf(w.fake.requests[1])[0]?.is_error).toBeFalsy();
  expect(statSync(w.path(".git", "index")).mtimeMs).toBe(before);
  gitIn("status", "--short"); // outside the sandbox the same command does write it
  expect(statSync(w.path(".git", "index")).mtimeMs).not.toBe(before);

  const doctor = await w.run(["doctor"]);
  expect(doctor.stdout).toMatch(/ok +sandbox +bubblewrap .*: commands allowed as read-only run with nothing writable/);
  expect(doctor.stdout).toContain("commands a person or a rule allowed run unsandboxed (sandbox off)");
});

test.concurrent("without bubblewrap, doctor says the analysis holds alone, and fails only when the sandbox is on", async () => {
  await using w = await world();
  const noBwrap = { PATH: w.root }; // rein itself needs nothing on PATH
  const off = await w.run(["doctor"], { env: noBwrap });
  expect(off.stdout).toMatch(/ok +sandbox +unavailable: bubblewrap is not installed .*; the permission analysis holds alone \(sandbox off\)/);
  const on = await w.run(["doctor", "--sandbox"], { env: noBwrap });
  expect(on.stdout).toMatch(/FAIL sandbox +unavailable: .*; bash commands will not run \(sandbox on\)/);
});
