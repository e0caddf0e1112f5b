// Permissions in print mode: the --on-ask policies and the --allow / --deny flags, seen from the
// file system and from what the model is told.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { bash, resultText, text, toolResultsOf, world } from "./harness.ts";

test.concurrent("--on-ask deny (default): the model is told the call was refused and which --allow would allow it; the run succeeds", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("touch x")] }, { reply: [text("I could not create x.")] });

  const r = await w.run(["-p", "create x"]);

  expect(r.code).toBe(0);
  expect(r.stdout).toBe("I could not create x.\n");
  expect(existsSync(w.path("x"))).toBe(false);
  const [result] = toolResultsOf(w.fake.requests[1]);
  expect(result?.is_error).toBe(true);
  // touch is a command and a write: the model learns both rules ("always" generalises touch by the arity table)
  expect(resultText(result)).toContain("--allow 'bash(touch *)'");
  expect(resultText(result)).toContain(`--allow 'edit(${w.path("x")})'`);
  expect(r.stderr).toContain("--allow");
});

test.concurrent("--on-ask fail: exit 3 and the command did not run", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("touch x")] }, { reply: [text("must not be reached")] });

  const r = await w.run(["-p", "create x", "--on-ask", "fail", "--output-format", "json"]);

  expect(r.code).toBe(3);
  expect(existsSync(w.path("x"))).toBe(false);
  expect(JSON.parse(r.stdout)).toMatchObject({ type: "result", status: "permission" });
  expect(r.stderr).toContain("--allow 'bash(touch *)'");
  expect(w.fake.requests).toHaveLength(1);
});

test.concurrent("--allow 'bash(touch *)' with --allow edit lets touch run; the command rule alone does not allow the write", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("touch x")] }, { reply: [text("not created")] }, { reply: [bash("touch x")] }, { reply: [text("created")] });

  const refused = await w.run(["-p", "create x", "--allow", "bash(touch *)"]);
  expect(refused.code).toBe(0);
  expect(existsSync(w.path("x"))).toBe(false);

  const r = await w.run(["-p", "create x", "--allow", "bash(touch *)", "--allow", "edit"]);

  expect(r.code).toBe(0);
  expect(existsSync(w.path("x"))).toBe(true);
  const [result] = toolResultsOf(w.fake.requests[3]);
  expect(result?.is_error).toBeFalsy();
});

test.concurrent("--deny 'bash(echo *)' blocks echo, which the defaults allow", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("echo hi")] }, { reply: [text("blocked")] });

  const r = await w.run(["-p", "echo", "--deny", "bash(echo *)"]);

  expect(r.code).toBe(0);
  const [result] = toolResultsOf(w.fake.requests[1]);
  expect(result?.is_error).toBe(true);
  expect(resultText(result)).toContain("Permission denied");
  expect(resultText(result)).not.toMatch(/^hi/m);
  // stderr says so, as it does for a refused ask: the progress line with the main argument, then the rule.
  expect(r.stderr).toContain("› bash echo hi\n");
  expect(r.stderr).toContain('rein: denied bash: bash(echo hi) is forbidden by the rule "bash(echo *)"');
});

test.concurrent("progress lines on stderr show each tool's main argument, not its input as JSON", async () => {
  await using w = await world();
  const todo = { type: "tool_use" as const, name: "todo", input: { todos: [{ content: "look", status: "in_progress" }] } };
  w.fake.script({ reply: [todo] }, { reply: [text("done")] });

  const r = await w.run(["-p", "plan it"]);

  expect(r.code).toBe(0);
  expect(r.stderr).toContain("› todo 1 task\n");
  expect(r.stderr).not.toContain('[{"content"');
});

test.concurrent("a compound command is not allowed by a rule for its first part", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("echo a && touch y")] }, { reply: [text("not allowed")] });

  const r = await w.run(["-p", "go", "--allow", "bash(echo *)"]);

  expect(r.code).toBe(0);
  expect(existsSync(w.path("y"))).toBe(false);
  const [result] = toolResultsOf(w.fake.requests[1]);
  expect(result?.is_error).toBe(true);
  expect(resultText(result)).toContain("Not run");
});

test.concurrent("an untrusted repository's ask rule cannot turn the user's deny into a question; a trusted one can", async () => {
  await using w = await world();
  await Bun.write(`${w.configDir}/config.json`, JSON.stringify({ permissions: { deny: ["bash(rm *)"] } }));
  await Bun.write(w.path(".rein/config.json"), JSON.stringify({ permissions: { ask: ["bash(rm *)"] } }));

  const untrusted = await w.run(["permissions", "explain", "--json", "--", "rm -rf build"]);
  expect(untrusted.code).toBe(0);
  const decided = JSON.parse(untrusted.stdout);
  expect(decided.decision).toBe("deny");
  expect(decided.requests[0].rule).toMatchObject({ action: "deny", source: "user config (kept over the untrusted project's)" });

  const trusted = await w.run(["permissions", "explain", "--json", "--trust", "--", "rm -rf build"]);
  expect(JSON.parse(trusted.stdout).requests[0].rule).toMatchObject({ action: "ask", source: "project config" });
});

test.concurrent("a write to an existing file the model has not read is refused before anyone is asked", async () => {
  await using w = await world();
  await Bun.write(w.path("notes.txt"), "mine\n");
  w.fake.script({ reply: [{ type: "tool_use", name: "write", input: { path: "notes.txt", content: "theirs\n" } }] }, { reply: [{ type: "text", text: "ok" }] });
  const r = await w.runStream(["-p", "overwrite it", "--on-ask", "fail"]);
  expect(r.code).toBe(0);
  expect(r.events.filter((e) => e.type === "permission_ask")).toEqual([]);
  const end = r.events.find((e) => e.type === "tool_end");
  expect(end).toMatchObject({ name: "write", is_error: true });
  expect(end?.output).toContain("already exists and you have not read it in this session");
  expect(await Bun.file(w.path("notes.txt")).text()).toBe("mine\n");
});
