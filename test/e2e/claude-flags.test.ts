// Claude Code's print-mode flags with Claude Code's meaning, through the compiled binary against the
// fake model: each one changes what is sent, what runs, or what is printed.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { bash, resultText, text, toolResultsOf, world } from "./harness.ts";

const write = (path: string, id = "toolu_w") => ({ type: "tool_use" as const, id, name: "write", input: { path, content: "x\n" } });

test.concurrent("--permission-mode plan refuses a write that --allow edit allows; acceptEdits and --dangerously-skip-permissions let it through", async () => {
  await using w = await world();
  w.fake.script({ reply: [write("a.txt")] }, { reply: [text("done")] });
  expect((await w.run(["-p", "write a", "--permission-mode", "plan", "--allow", "edit"])).code).toBe(0);
  expect(existsSync(w.path("a.txt"))).toBe(false);
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toContain("denied");

  w.fake.script({ reply: [write("b.txt")] }, { reply: [text("done")] });
  expect((await w.run(["-p", "write b", "--permission-mode", "acceptEdits"])).code).toBe(0);
  expect(existsSync(w.path("b.txt"))).toBe(true);

  w.fake.script({ reply: [write("c.txt")] }, { reply: [text("done")] });
  expect((await w.run(["-p", "write c", "--dangerously-skip-permissions"])).code).toBe(0);
  expect(existsSync(w.path("c.txt"))).toBe(true);

  const bad = await w.run(["-p", "x", "--permission-mode", "yolo"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--permission-mode expects one of default, plan, accept-edits, auto, acceptEdits, bypassPermissions, dontAsk");
});

test.concurrent("--allowedTools and --disallowedTools in Claude's rule syntax; --settings JSON; a deny holds over an allow", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("touch t1", "toolu_1")] }, { reply: [text("done")] });
  expect((await w.run(["-p", "touch 1", "--allowedTools", "Bash(touch:*) Edit"])).code).toBe(0);
  expect(existsSync(w.path("t1"))).toBe(true);

  w.fake.script({ reply: [bash("touch t2", "toolu_2")] }, { reply: [text("done")] });
  expect((await w.run(["-p", "touch 2", "--allowed-tools", "Bash(touch:*),Edit", "--disallowedTools", "Bash(touch t2)"])).code).toBe(0);
  expect(existsSync(w.path("t2"))).toBe(false);

  w.fake.script({ reply: [bash("touch t3", "toolu_3")] }, { reply: [text("done")] });
  const r = await w.run(["-p", "touch 3", "--dangerously-skip-permissions", "--settings", '{"permissions":{"deny":["Bash(touch:*)"]}}']);
  expect(r.code).toBe(0);
  expect(existsSync(w.path("t3"))).toBe(false);
});

test.concurrent("--tools limits the built-in tools offered; --system-prompt replaces rein's, --append-system-prompt adds to it", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("ok")] }, { reply: [text("ok")] });
  await writeFile(w.path("extra.txt"), "FROM A FILE");
  expect((await w.run(["-p", "hi", "--tools", "Read,Grep", "--system-prompt", "YOU ARE A TEST", "--append-system-prompt-file", "extra.txt"])).code).toBe(0);
  const body = w.fake.requests[0]!.body;
  expect(body.tools.map((t: { name: string }) => t.name).filter((n: string) => n !== "load_tools")).toEqual(["read", "grep"]);
  const system = JSON.stringify(body.system);
  expect(system).toContain("YOU ARE A TEST");
  expect(system).toContain("FROM A FILE");
  expect(system).not.toContain("You are rein");
});

test.concurrent("--json-schema: an answer that does not match goes back to the model; the valid one is structured_output", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("It is fine.")] }, { reply: [text('```json\n{"ok": true}\n```')] });
  const schema = '{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}';
  const r = await w.run(["-p", "is it ok?", "--json-schema", schema, "--output-format", "json"]);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ status: "success", structured_output: { ok: true } });
  expect(JSON.stringify(w.fake.requests[0]!.body.system)).toContain("valid against this JSON Schema");
  expect(JSON.stringify(w.fake.requests[1]!.body.messages.at(-1))).toContain("does not match the JSON Schema");

  w.fake.script({ reply: [text('{"ok": true}')] });
  const claude = await w.run(["-p", "is it ok, claude?", "--json-schema", schema, "--output-format", "claude-json"]);
  expect(JSON.parse(claude.stdout)).toMatchObject({ type: "result", subtype: "success", structured_output: { ok: true } });

  const bad = await w.run(["-p", "x", "--json-schema", "{not json"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--json-schema: not valid JSON");
});

test.concurrent("--session-id names the session; -r with --fork-session goes on in a copy; --max-budget-usd is --max-cost", async () => {
  await using w = await world();
  const id = "123e4567-e89b-12d3-a456-426614174000";
  w.fake.script({ reply: [text("one")] }, { reply: [text("two")] });
  const first = await w.runStream(["-p", "first", "--session-id", id, "--max-budget-usd", "5"]);
  expect(first.events[0]).toMatchObject({ type: "session", session_id: id });
  const again = await w.run(["-p", "again", "--session-id", id]);
  expect(again.code).toBe(2);
  expect(again.stderr).toContain(`session ${id} already exists: resume it with -r ${id}`);
  const forked = await w.runStream(["-p", "second", "-r", id, "--fork-session"]);
  expect(forked.code).toBe(0);
  expect(forked.events[0]!.session_id).not.toBe(id);
  // The fork carried the conversation; the original kept only its own.
  expect(JSON.stringify(w.fake.requests[1]!.body.messages)).toContain("first");
  const shown = await w.run(["sessions", "show", id]);
  expect(shown.stdout).not.toContain("second");
});

test.concurrent("--agents defines a subagent the task tool runs; --fallback-model takes an overloaded turn", async () => {
  await using w = await world();
  const agents = JSON.stringify({ checker: { description: "checks things", prompt: "YOU CHECK THINGS.", model: "haiku" } });
  const isChild = (body: { system?: unknown }) => JSON.stringify(body.system).includes("YOU CHECK THINGS.");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_t", input: { description: "check", prompt: "check it", subagent_type: "checker" } }] },
    { respond: (body) => (isChild(body) ? { reply: [text("checked")] } : { error: 500 }) },
    { reply: [text("all checked")] },
  );
  expect((await w.run(["-p", "check", "--agents", agents])).code).toBe(0);
  expect(w.fake.requests[1]!.body.model).toBe("claude-haiku-5-5");

  w.fake.reset();
  w.fake.script({ error: 529 }, { reply: [text("from the fallback")] });
  const r = await w.run(["-p", "busy?", "--fallback-model", "haiku"], { env: { REIN_RETRY_MAX_ATTEMPTS: "1" } });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("from the fallback");
  expect(w.fake.requests.map((req) => req.body.model)).toEqual(["claude-sonnet-5-5", "claude-haiku-5-5"]);
  expect(r.stderr).toContain("falling back to claude-haiku-5-5");
});
