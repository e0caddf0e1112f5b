// Print mode through the compiled binary: what goes to stdout and stderr in each output format.
import { expect, test } from "bun:test";
import pkg from "../../package.json" with { type: "json" };
import { toolDefinition } from "../../src/agent/tool-schema.ts";
import { builtinTools } from "../../src/registry/builtin.ts";
import { bash, lastUserText, messagesOf, parseEvents, resultText, text, toolResultsOf, world } from "./harness.ts";

test.concurrent("text: stdout is exactly the final answer; tool progress goes to stderr; the tool result goes back", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("Let me look."), bash("echo hi")] }, { reply: [text("The command printed hi.")] });

  const r = await w.run(["-p", "say hi with bash"]);

  expect(r.code).toBe(0);
  expect(r.stdout).toBe("The command printed hi.\n");
  expect(r.stderr).toContain("bash echo hi");
  expect(w.fake.requests).toHaveLength(2);
  expect(lastUserText(w.fake.requests[0])).toBe("say hi with bash");
  const [result] = toolResultsOf(w.fake.requests[1]);
  expect(result?.is_error).toBeFalsy();
  expect(resultText(result).trim()).toBe("hi");
  const sent = messagesOf(w.fake.requests[1]);
  expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
});

test.concurrent("json: stdout is one result object", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("Forty-two.")], usage: { input_tokens: 100, output_tokens: 5 } });

  const r = await w.run(["-p", "answer", "--output-format", "json"]);

  expect(r.code).toBe(0);
  const lines = r.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  const result = JSON.parse(lines[0]!);
  expect(result).toMatchObject({ type: "result", status: "success", text: "Forty-two.", turns: 1 });
  expect(result.usage).toMatchObject({ input_tokens: 100, output_tokens: 5 });
  expect(typeof result.cost_usd).toBe("number");
  expect(result.session_id).toMatch(/^s_/);
});

test.concurrent("stream-json: one event per line, seq increasing, session first, result last", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("Running it."), bash("echo hi")] }, { reply: [text("Done.")] });

  const r = await w.runStream(["-p", "go"]);

  expect(r.code).toBe(0);
  const { events } = r;
  expect(events[0]?.type).toBe("session");
  expect(events[0]).toMatchObject({ cwd: w.cwd, version: pkg.version });
  expect(events.at(-1)).toMatchObject({ type: "result", status: "success", text: "Done." });
  const types = new Set(events.map((e) => e.type));
  for (const type of ["user", "text_delta", "assistant", "tool_start", "tool_end"]) expect(types).toContain(type);
  for (let i = 1; i < events.length; i++) expect(events[i]!.seq).toBeGreaterThan(events[i - 1]!.seq);
  expect(new Set(events.map((e) => e.session_id)).size).toBe(1);
  const end = events.find((e) => e.type === "tool_end")!;
  expect(end).toMatchObject({ name: "bash", is_error: false });
  expect(end.output.trim()).toBe("hi");
});

test.concurrent("stream-json: a failed run still ends with a result line, status error", async () => {
  await using w = await world();
  w.fake.script({ error: 401 });

  const r = await w.runStream(["-p", "go"]);

  expect(r.code).toBe(1);
  expect(r.events[0]?.type).toBe("session");
  expect(r.events.at(-1)).toMatchObject({ type: "result", status: "error" });
  expect(r.events.at(-1)!.error).toContain("API key was refused");
});

test.concurrent("--version prints rein and the package version", async () => {
  await using w = await world();
  const r = await w.run(["--version"]);
  expect(r).toMatchObject({ code: 0, stdout: `rein ${pkg.version}\n` });
});

test.concurrent("rein with no -p and stdin not a terminal is a usage error that points to -p", async () => {
  await using w = await world();
  const r = await w.run([]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("-p");
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("rein doctor with a key passes, reports the database, and checks that the API answers (GET /v1/models, no tokens spent)", async () => {
  await using w = await world();
  const r = await w.run(["doctor"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("database");
  expect(r.stdout).toContain(w.dataDir);
  expect(r.stdout).toMatch(/^ok {3}api {11}answers \(\d+ ms\)$/m);
  expect(w.fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual(["GET /v1/models"]);
  // Local model servers nobody configured, not running here: no lines about them.
  for (const local of ["ollama", "lmstudio", "llamacpp", "vllm"]) expect(r.stdout).not.toContain(local);
  const instructions = r.stdout.split("\n").find((l) => l.includes("instructions"));
  expect(instructions!.length).toBeLessThan(120);
  // The tools the session adds are listed too.
  const tools = await w.run(["tools", "list"]);
  for (const name of ["task", "skill", "memory"]) expect(tools.stdout).toMatch(new RegExp(`^${name} +session `, "m"));
});

test.concurrent("rein doctor says when the API refuses the key, and when it does not answer in time (exit 1)", async () => {
  await using w = await world();
  w.fake.script({ error: 401 });
  const refused = await w.run(["doctor"]);
  expect(refused.code).toBe(1);
  expect(refused.stdout).toMatch(/^FAIL api {11}API error 401: the API key was refused .*Check ANTHROPIC_API_KEY/m);

  w.fake.script({ hang: true });
  const silent = await w.run(["doctor"], { env: { REIN_DOCTOR_TIMEOUT_MS: "300" } });
  expect(silent.code).toBe(1);
  expect(silent.stdout).toContain("FAIL api           no answer within 0.3 s: check ANTHROPIC_BASE_URL and the network\n");
  expect(silent.stdout).toContain("db integrity"); // the other checks still ran
});

test.concurrent("parseEvents is strict about whole lines", () => {
  expect(parseEvents('{"type":"a","seq":1}\n{"type":"b"', { partial: true }).map((e) => e.type)).toEqual(["a"]);
});

test.concurrent("a model without prices: json counts the tokens and reports the cost as null, not 0", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("Hi.")], usage: { input_tokens: 100, output_tokens: 5 } });
  const r = await w.run(["-p", "answer", "-m", "claude-unpriced-1", "--max-cost", "1", "--output-format", "json"]);
  expect(r.code).toBe(0);
  const result = JSON.parse(r.stdout);
  expect(result).toMatchObject({ status: "success", cost_usd: null, usage: { input_tokens: 100, output_tokens: 5 } });
  expect(r.stderr).toContain("the prices of model claude-unpriced-1 are unknown");
});

test.concurrent("the tools sent are the built-ins' definitions, converted when the binary was built exactly as now; the deferred ones (memory among them) are named in load_tools", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("ok")] });

  expect((await w.run(["-p", "say ok"])).code).toBe(0);
  const sent = (w.fake.requests[0]!.body as { tools: Record<string, unknown>[] }).tools.map(({ cache_control: _mark, ...tool }) => tool);
  const deferred = ["list", "history", "webfetch"];
  const builtins = builtinTools().map(toolDefinition).filter((tool) => !deferred.includes(tool.name));
  expect(sent.slice(0, builtins.length)).toEqual(builtins);
  const loader = sent.find((tool) => tool.name === "load_tools");
  for (const name of [...deferred, "memory"]) expect(String(loader?.description)).toContain(`${name} (`);
});

test.concurrent("what every request carries (system prompt and tools, deferred ones counted in load_tools) is at most 4,900 characters, with task offered up front", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("ok")] });

  expect((await w.run(["-p", "say ok"])).code).toBe(0);
  const body = w.fake.requests[0]!.body as { system: string | { text: string }[]; tools: { name: string; description: string }[] };
  const system = typeof body.system === "string" ? body.system : body.system.map((b) => b.text).join("");
  expect(system.length + JSON.stringify(body.tools).length).toBeLessThanOrEqual(4_900);
  const names = body.tools.map((t) => t.name);
  expect(names).toContain("task");
  const loader = body.tools.find((t) => t.name === "load_tools")!;
  // Every tool rein has is either sent whole or named in load_tools.
  for (const name of ["bash", "read", "write", "edit", "glob", "grep", "list", "todo", "history", "webfetch", "memory", "send_message", "task_stop", "task_output"]) {
    expect(names.includes(name) || loader.description.includes(name)).toBe(true);
  }
});

test.concurrent("a model the Anthropic SDK calls deprecated prints no SDK warning on stderr, turn after turn", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("Looking."), bash("echo hi")] }, { reply: [text("Done.")] });

  const r = await w.run(["-p", "go", "-m", "claude-sonnet-4-5"]);

  expect(r.code).toBe(0);
  expect(r.stdout).toBe("Done.\n");
  expect(w.fake.requests.map((q) => q.body.model)).toEqual(["claude-sonnet-4-5", "claude-sonnet-4-5"]);
  expect(r.stderr).not.toMatch(/deprecated|end-of-life|migrate/i);
});
