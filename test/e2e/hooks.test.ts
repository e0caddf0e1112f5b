// Hooks through the compiled binary: print mode runs the same hooks as a session does, project
// hooks need --trust, a malformed hooks value is a usage error, and `rein hooks` lists and tries them.
import { expect, test } from "bun:test";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { existsSync, readFileSync, watch } from "node:fs";
import { dirname, join } from "node:path";
import { bash, text, toolResultsOf, resultText, world, type World } from "./harness.ts";

async function projectHook(w: World, body: string): Promise<string> {
  const script = w.path(".claude", "hooks", "no-touch.sh");
  await mkdir(join(w.cwd, ".claude", "hooks"), { recursive: true });
  await writeFile(script, `#!/bin/sh\n${body}\n`);
  await chmod(script, 0o755);
  const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-touch.sh' }] }] };
  await writeFile(w.path(".claude", "settings.json"), JSON.stringify({ hooks }));
  return script;
}

test.concurrent("a malformed hooks value in rein's config stops rein before any request (exit 2, file and key)", async () => {
  await using w = await world();
  const file = join(w.configDir, "config.json");
  await writeFile(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command" }] }] } }));
  const r = await w.run(["-p", "hi"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`config error in ${file}: "hooks.PreToolUse[0].hooks[0]": missing key "command"`);
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("print mode runs a trusted project's Claude Code hook: exit 2 blocks the call, and stream-json reports the run", async () => {
  await using w = await world();
  await projectHook(w, `grep -q '"tool_name":"Bash"' && echo "touching files is not allowed" >&2 && exit 2; exit 0`);
  w.fake.script({ reply: [bash(`touch ${w.path("touched")}`, "t1")] }, { reply: [text("understood")] });

  const r = await w.runStream(["-p", "touch it", "--trust"]);

  expect(r.code).toBe(0);
  expect(existsSync(w.path("touched"))).toBe(false);
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toContain("blocked this call: touching files is not allowed");
  const end = r.events.find((e) => e.type === "hook_end");
  expect(end).toMatchObject({ event: "PreToolUse", decision: "deny", source: w.path(".claude", "settings.json"), tool_use_id: "t1" });
  expect(r.events.findIndex((e) => e.type === "hook_start")).toBeLessThan(r.events.findIndex((e) => e.type === "hook_end"));
});

test.concurrent("without --trust a project's hooks do not run, and rein hooks list says they are inactive", async () => {
  await using w = await world();
  await projectHook(w, "exit 2");
  w.fake.script({ reply: [bash(`touch ${w.path("touched")}`, "t1")] }, { reply: [text("done")] });

  const r = await w.runStream(["-p", "touch it", "--allow", "bash(touch *)"]);
  expect(r.code).toBe(0);
  expect(r.events.filter((e) => e.type.startsWith("hook_"))).toEqual([]);
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).not.toContain("hook");

  const listed = await w.run(["hooks", "list"]);
  expect(listed.stdout).toContain("PreToolUse");
  expect(listed.stdout).toContain("[inactive: the workspace is not trusted; run with --trust]");
  const trusted = await w.run(["hooks", "list", "--json", "--trust"]);
  expect(JSON.parse(trusted.stdout).hooks).toEqual([
    expect.objectContaining({ event: "PreToolUse", matcher: "Bash", source: w.path(".claude", "settings.json"), scope: "project", active: true }),
  ]);
});

test.concurrent("rein hooks test runs the matching hooks on a made-up call and prints what they decided", async () => {
  await using w = await world();
  await projectHook(w, `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no rm"}}'`);
  const r = await w.run(["hooks", "test", "PreToolUse", "--tool", "bash", "--input", '{"command":"rm -rf x"}', "--trust"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("decision: deny\nreason: no rm");
  const bad = await w.run(["hooks", "test", "PreToolUse", "--trust"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("PreToolUse is about a tool call: give one with --tool NAME");
});

test.concurrent("print mode ends the session for its hooks: SessionStart at the first prompt, SessionEnd after the result", async () => {
  await using w = await world();
  const log = w.path("lifecycle.log");
  const record = (event: string) => [{ hooks: [{ type: "command", command: `printf '%s ' ${event} >> ${log}` }] }];
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ hooks: { SessionStart: record("start"), UserPromptSubmit: record("prompt"), Stop: record("stop"), SessionEnd: record("end") } }));
  w.fake.script({ reply: [text("hello")] });

  const r = await w.runStream(["-p", "hi"]);

  expect(r.code).toBe(0);
  expect(r.events.at(-1)!.type).toBe("result");
  expect(await Bun.file(log).text()).toBe("start prompt stop end ");
});

test.concurrent("a hook's continue:false stops the run: exit 5, the reason on stderr, no further turn", async () => {
  await using w = await world();
  const stop = `echo '{"continue":false,"stopReason":"the build is red"}'`;
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: stop }] }] } }));
  w.fake.script({ reply: [bash("echo hi", "t1")] });

  const r = await w.run(["-p", "go", "--allow", "bash(echo *)"]);
  expect(r.code).toBe(5);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("stopped by a PostToolUse hook: the build is red");
  expect(w.fake.requests).toHaveLength(1);

  w.fake.script({ reply: [bash("echo hi", "t1")] });
  const json = await w.runStream(["-p", "go", "--allow", "bash(echo *)"]);
  expect(json.code).toBe(5);
  expect(json.events.at(-1)).toMatchObject({ type: "result", status: "stopped", error: "stopped by a PostToolUse hook: the build is red" });
});

test.concurrent("SIGINT while a hook runs ends the hook and the run (exit 130); the tool does not run", async () => {
  await using w = await world();
  const pidFile = w.path("hook.pid");
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `echo $$ > ${pidFile}; exec sleep 30` }] }] } }));
  w.fake.script({ reply: [bash(`touch ${w.path("touched")}`, "t1")] });

  const running = w.start(["-p", "touch it", "--output-format", "stream-json"]);
  await running.waitForEvent("hook_start");
  await waitForFile(pidFile);
  running.kill("SIGINT");
  const r = await running.exited;

  expect(r.code).toBe(130);
  expect(existsSync(w.path("touched"))).toBe(false);
  const events = r.stdout.trim().split("\n").map((line) => JSON.parse(line));
  expect(events.find((e) => e.type === "hook_end")).toMatchObject({ error: "stopped: the run was interrupted" });
  expect(events.at(-1)).toMatchObject({ type: "result", status: "interrupted" });
});

/** Resolves once `path` holds something (the hook writes its pid as its first act). */
function waitForFile(path: string): Promise<void> {
  const ready = () => existsSync(path) && readFileSync(path, "utf8").trim() !== "";
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), () => ready() && (watcher.close(), resolve()));
    if (ready()) (watcher.close(), resolve());
  });
}
