// rein against the recordings of the real Claude Code 2.1.332 (test/fixtures/claude-code/): the same
// cases, the same `.claude/settings.json` hooks dumping their stdin, environment and transcript,
// run through the compiled binary against the fake model. What Claude Code sends its hooks and
// prints must be there in rein's, key by key with the same JSON types (extra keys are fine).
import { expect, test } from "bun:test";
import { chmod, copyFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { text, world, type World } from "./harness.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "claude-code");
const RECORDED = join(FIXTURES, "recorded");
const HAS_JQ = Bun.which("jq") !== null; // the dump hook reads transcript_path with jq

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const typeOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** Where `ours` lacks a key of `theirs` or has another JSON type, `depth` levels down. */
export function shapeGaps(theirs: unknown, ours: unknown, path = "", depth = 3, allow: ReadonlySet<string> = new Set()): string[] {
  if (allow.has(path)) return [];
  if (typeOf(theirs) !== typeOf(ours)) return [`${path || "."}: ${typeOf(theirs)} in Claude Code, ${typeOf(ours)} in rein`];
  if (depth === 0 || typeOf(theirs) !== "object") return [];
  const gaps: string[] = [];
  for (const [key, value] of Object.entries(theirs as Record<string, unknown>)) {
    const here = `${path}.${key}`;
    if (allow.has(here)) continue;
    if (!(key in (ours as Record<string, unknown>))) gaps.push(`${here}: missing`);
    else gaps.push(...shapeGaps(value, (ours as Record<string, unknown>)[key], here, depth - 1, allow));
  }
  return gaps;
}

/** The recorded hook payloads of a case, by `EVENT-TOOL` (the first of each). */
async function recordedHooks(name: string): Promise<Map<string, Json>> {
  const dir = join(RECORDED, name);
  const out = new Map<string, Json>();
  for (const file of (await readdir(dir)).filter((f) => f.startsWith("hook-")).sort()) {
    const key = file.replace(/^hook-\d+-/, "").replace(/\.json$/, "");
    if (!out.has(key)) out.set(key, JSON.parse(await readFile(join(dir, file), "utf8")));
  }
  return out;
}

/** A World with the recordings' settings: every hook event dumps its payload into ROOT/dumps. */
async function claudeWorld(extraHooks: Record<string, unknown[]> = {}, permissions: unknown = { allow: ["Bash", "Write", "Edit", "Read"] }): Promise<World> {
  const w = await world();
  const dump = join(w.root, "dump-hook.sh");
  await copyFile(join(FIXTURES, "dump-hook.sh"), dump);
  await chmod(dump, 0o755);
  const settings = JSON.parse(await readFile(join(FIXTURES, "cases", "bash-ok.settings.json"), "utf8").then((t) => t.replaceAll("{DUMP}", dump)));
  for (const [event, groups] of Object.entries(extraHooks)) settings.hooks[event] = [...(settings.hooks[event] ?? []), ...groups];
  settings.permissions = permissions;
  await mkdir(w.path(".claude"), { recursive: true });
  await writeFile(w.path(".claude", "settings.json"), JSON.stringify(settings));
  await writeFile(w.path("README.md"), "hello world\nsecond line\n");
  return w;
}

/** rein's dumped payloads, in the order the hooks ran, by `EVENT-TOOL` (the first of each), with their env and transcript copy. */
async function dumped(w: World): Promise<Map<string, { payload: Record<string, any>; env: string; transcript?: string }>> {
  const dir = join(w.root, "dumps");
  const out = new Map<string, { payload: Record<string, any>; env: string; transcript?: string }>();
  if (!existsSync(dir)) return out;
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".json")).sort()) {
    const base = file.slice(0, -5);
    const payload = JSON.parse(await readFile(join(dir, file), "utf8"));
    const key = `${payload.hook_event_name}${payload.tool_name ? `-${payload.tool_name}` : ""}`;
    const t = join(dir, `${base}.transcript.jsonl`);
    if (!out.has(key)) out.set(key, { payload, env: await readFile(join(dir, `${base}.env`), "utf8"), ...(existsSync(t) ? { transcript: await readFile(t, "utf8") } : {}) });
  }
  return out;
}

/** rein cannot know these as Claude Code does (documented in docs/hooks.md). */
const ALLOWED_GAPS = new Set([".tool_response.originalFile", ".tool_response.structuredPatch", ".originalFile", ".structuredPatch"]);

async function expectHooksLike(name: string, w: World, keys: string[], allow: readonly string[] = []) {
  const theirs = await recordedHooks(name);
  const ours = await dumped(w);
  for (const key of keys) {
    expect(theirs.has(key), `${name}: the recording has ${key}`).toBe(true);
    expect(ours.has(key), `${name}: rein fired ${key} (fired: ${[...ours.keys()].join(", ")})`).toBe(true);
    expect(shapeGaps(theirs.get(key), ours.get(key)!.payload, "", 3, new Set([...ALLOWED_GAPS, ...allow])), `${name}: ${key}`).toEqual([]);
  }
  return ours;
}

/** The recordings' `permissions.allow`, as rein's flags (rein reads no permissions from Claude Code's settings yet) */
const ALLOW = ["--allow", "bash", "--allow", "edit", "--allow", "task"];
const bashCall = (command: string, id: string) => ({ type: "tool_use" as const, id, name: "bash", input: { command, description: "a step" } });

test.skipIf(!HAS_JQ)("hook payloads: Bash success, its environment, and the Claude Code transcript it can read", async () => {
  await using w = await claudeWorld();
  w.fake.script({ reply: [bashCall("echo hi", "toolu_c1")] }, { reply: [text("all done")] });
  const r = await w.run(["-p", "run echo", "--trust", ...ALLOW, "--output-format", "claude-stream-json"]);
  expect(r.code).toBe(0);
  const ours = await expectHooksLike("bash-ok", w, ["SessionStart", "UserPromptSubmit", "PreToolUse-Bash", "PostToolUse-Bash", "Stop", "SessionEnd"]);
  const post = ours.get("PostToolUse-Bash")!;
  expect(post.payload.tool_input).toEqual({ command: "echo hi", description: "a step" });
  expect(post.payload.tool_response).toMatchObject({ stdout: "hi", stderr: "", interrupted: false });
  for (const name of ["CLAUDECODE=1", "CLAUDE_CODE_ENTRYPOINT=sdk-cli", `CLAUDE_PROJECT_DIR=${w.cwd}`]) expect(post.env.split("\n")).toContain(name);
  // The transcript as the PostToolUse hook read it: the prompt and the Bash call, in Claude Code's JSONL.
  const lines = post.transcript!.trim().split("\n").map((l) => JSON.parse(l));
  expect(lines.map((l) => l.type)).toEqual(["user", "assistant"]);
  expect(lines[1].message.content[0]).toMatchObject({ type: "tool_use", name: "Bash", input: { command: "echo hi" } });
  expect(lines[1].parentUuid).toBe(lines[0].uuid);
  const recorded = (await readFile(join(RECORDED, "bash-ok", "transcript-final.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
  const theirs = { user: recorded.find((l) => l.type === "user"), assistant: recorded.find((l) => l.type === "assistant") };
  expect(shapeGaps(theirs.user, lines[0], "", 2, new Set([".promptSource", ".sentAtMs", ".rowSource", ".turnOrigin", ".turnPosition", ".gitBranch"]))).toEqual([]);
  expect(shapeGaps(theirs.assistant, lines[1], "", 2, new Set([".toolInputStreamMs", ".apiBlockIndex", ".requestId", ".requestRef", ".requestedModel", ".promptCacheRequested", ".effort", ".perTurnEffort", ".madeBy", ".gitBranch", ".message.stop_details"]))).toEqual([]);
});

test.skipIf(!HAS_JQ)("hook payloads: a Bash exit 3 is PostToolUseFailure with Claude Code's error text", async () => {
  await using w = await claudeWorld();
  w.fake.script({ reply: [bashCall("echo out; echo err >&2; exit 3", "toolu_c2")] }, { reply: [text("all done")] });
  const r = await w.run(["-p", "run a failing command", "--trust", ...ALLOW]);
  expect(r.code).toBe(0);
  const ours = await expectHooksLike("bash-fail", w, ["PreToolUse-Bash", "PostToolUseFailure-Bash"]);
  expect(ours.has("PostToolUse-Bash")).toBe(false);
  expect(ours.get("PostToolUseFailure-Bash")!.payload).toMatchObject({ error: "Exit code 3\nout\nerr\n", is_interrupt: false });
});

test.skipIf(!HAS_JQ)("hook payloads: Write, Read and Edit with Claude Code's input fields and structured tool_response", async () => {
  await using w = await claudeWorld();
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_w", name: "write", input: { path: "new.txt", content: "one\ntwo\n" } }] },
    { reply: [{ type: "tool_use", id: "toolu_r", name: "read", input: { path: "README.md" } }] },
    { reply: [{ type: "tool_use", id: "toolu_e", name: "edit", input: { path: "README.md", old_string: "world", new_string: "there" } }] },
    { reply: [text("ok")] },
  );
  const r = await w.run(["-p", "touch the files", "--trust", ...ALLOW]);
  expect(r.code).toBe(0);
  const ours = await expectHooksLike("files", w, ["PreToolUse-Write", "PostToolUse-Write", "PreToolUse-Read", "PostToolUse-Read", "PreToolUse-Edit", "PostToolUse-Edit"]);
  expect(ours.get("PostToolUse-Write")!.payload.tool_response).toMatchObject({ type: "create", filePath: w.path("new.txt"), content: "one\ntwo\n" });
  expect(ours.get("PostToolUse-Read")!.payload.tool_response).toEqual({ type: "text", file: { filePath: w.path("README.md"), content: "hello world\nsecond line\n", numLines: 2, startLine: 1, totalLines: 2 } });
  const edit = ours.get("PostToolUse-Edit")!.payload;
  expect(edit.tool_input).toEqual({ file_path: w.path("README.md"), old_string: "world", new_string: "there", replace_all: false });
  expect(edit.tool_response).toMatchObject({ filePath: w.path("README.md"), oldString: "world", newString: "there", replaceAll: false, structuredPatch: [{ oldStart: 1, newStart: 1, lines: expect.arrayContaining(["-hello world", "+hello there"]) }] });
});

test.skipIf(!HAS_JQ)("hook payloads: a task call is Agent to Claude Code's hooks; load_tools fires none", async () => {
  await using w = await claudeWorld({ PreToolUse: [{ matcher: "Task", hooks: [{ type: "command", command: `echo task-matched >> "$CLAUDE_PROJECT_DIR/../task-matcher"` }] }] }, { allow: ["Bash", "Agent"] });
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_t", name: "task", input: { description: "Look around", prompt: "look around and say fine", subagent_type: "general" } }] },
    { reply: [text("I looked: fine")] },
    { reply: [text("all done")] },
  );
  const r = await w.run(["-p", "delegate this", "--trust", ...ALLOW]);
  expect(r.code).toBe(0);
  // 2.1.332 launched the agent in the background (its async tool_response); rein's task runs in the foreground
  const ours = await expectHooksLike("agent", w, ["PreToolUse-Agent", "PostToolUse-Agent"], [".tool_response"]);
  expect(ours.get("PreToolUse-Agent")!.payload.tool_input).toEqual({ description: "Look around", prompt: "look around and say fine", subagent_type: "general" });
  expect(await readFile(join(w.root, "task-matcher"), "utf8")).toBe("task-matched\n");
  expect([...ours.keys()].some((key) => key.includes("load_tools"))).toBe(false);
});

const resultOf = (stdout: string) => stdout.trim().split("\n").map((l) => JSON.parse(l)).find((e) => e.type === "result");

test.skipIf(!HAS_JQ)("decisions: continue:false from a Claude Code PreToolUse hook ends the run as a success with its stopReason (exit 0)", async () => {
  await using w = await claudeWorld({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '{"continue":false,"stopReason":"halted by policy"}'` }] }] });
  w.fake.script({ reply: [bashCall(`touch ${w.path("never")}`, "toolu_s")] }, { reply: [text("all done")] });
  const r = await w.run(["-p", "try bash", "--trust", ...ALLOW, "--output-format", "stream-json"]);
  expect(r.code).toBe(0);
  expect(resultOf(r.stdout)).toMatchObject({ status: "success", hook_stop: { event: "PreToolUse", reason: "halted by policy" } });
  expect(w.fake.requests).toHaveLength(1);
  expect(existsSync(w.path("never"))).toBe(false);
});

test.skipIf(!HAS_JQ)("decisions: a Claude Code UserPromptSubmit block exits 0 with Claude Code's result text", async () => {
  await using w = await claudeWorld({ UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo 'prompts are closed' >&2; exit 2` }] }] });
  const r = await w.run(["-p", "blocked prompt", "--trust", "--output-format", "stream-json"]);
  expect(r.code).toBe(0);
  const recorded = resultOf(await readFile(join(RECORDED, "prompt-block", "stdout.txt"), "utf8"));
  expect(resultOf(r.stdout)).toMatchObject({ status: "success", text: recorded.result });
  expect(w.fake.requests).toHaveLength(0);
});

test.skipIf(!HAS_JQ)("decisions: a Claude Code PreToolUse allow answers rein's ask; a deny rule still wins", async () => {
  const allowHook = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok by hook"}}'` }] }] };
  {
    await using w = await claudeWorld(allowHook, {});
    w.fake.script({ reply: [bashCall(`touch ${w.path("allowed.txt")}`, "toolu_a")] }, { reply: [text("all done")] });
    const r = await w.run(["-p", "touch allowed", "--trust"]);
    expect(r.code).toBe(0);
    expect(existsSync(w.path("allowed.txt"))).toBe(true);
  }
  {
    await using w = await claudeWorld(allowHook, {});
    w.fake.script({ reply: [bashCall(`rm -f ${w.path("README.md")}`, "toolu_d")] }, { reply: [text("all done")] });
    const r = await w.run(["-p", "remove it", "--trust", "--deny", "bash(rm *)", "--output-format", "claude-json"]);
    expect(existsSync(w.path("README.md"))).toBe(true);
    expect(JSON.parse(r.stdout).permission_denials).toEqual([{ tool_name: "Bash", tool_use_id: "toolu_d", tool_input: { command: `rm -f ${w.path("README.md")}`, description: "a step" } }]);
  }
});

// --- claude-stream-json and claude-json, line type by line type ---

type Line = Record<string, any>;
const lines = (stdout: string): Line[] => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
const kind = (l: Line) => `${l.type}${l.type === "system" ? `/${l.subtype}` : ""}`;
async function recordedLines(name: string): Promise<Line[]> {
  return lines(await readFile(join(RECORDED, name, "stdout.txt"), "utf8"));
}
/** Timings rein does not measure (time to first token and such), keys named by the model, Claude Code's memory folder. */
const LINE_GAPS = [".memory_paths", ".ttft_ms", ".ttft_stream_ms", ".time_to_request_ms", ".first_content_frame_ms", ".modelUsage", ".subagent_stats", ".model_usage_since_last_result"];

function expectLinesLike(theirs: Line[], ours: Line[], kinds: string[]) {
  for (const k of kinds) {
    const a = theirs.find((l) => kind(l) === k);
    const b = ours.find((l) => kind(l) === k);
    expect(a, `the recording has a ${k} line`).toBeDefined();
    expect(b, `rein printed a ${k} line (printed: ${ours.map(kind).join(", ")})`).toBeDefined();
    expect(shapeGaps(a, b, "", 3, new Set([...LINE_GAPS, ".message.usage"])), k).toEqual([]);
  }
}

async function jq(filter: string, input: string): Promise<string> {
  const proc = Bun.spawn(["jq", "-r", filter], { stdin: new TextEncoder().encode(input), stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  return out.trim();
}
const FINAL_TEXT = 'select(.type=="result") | .result';
const TOTAL_COST = 'select(.type=="result") | .total_cost_usd | type';
const FILES_WRITTEN = 'select(.type=="assistant") | .message.content[] | select(.type=="tool_use") | .input.file_path // empty | split("/") | last';

test.skipIf(!HAS_JQ)("claude-stream-json: every key of Claude Code's init, assistant, user and result lines, with the same JSON types; the jq pipelines answer alike", async () => {
  await using w = await claudeWorld();
  w.fake.script(
    { reply: [{ type: "tool_use", id: "toolu_w", name: "write", input: { path: "new.txt", content: "one\ntwo\n" } }], usage: { input_tokens: 100, output_tokens: 10 } },
    { reply: [{ type: "tool_use", id: "toolu_r", name: "read", input: { path: "README.md" } }] },
    { reply: [{ type: "tool_use", id: "toolu_e", name: "edit", input: { path: "README.md", old_string: "world", new_string: "there" } }] },
    { reply: [text("ok")] },
  );
  const r = await w.run(["-p", "touch the files", "--trust", ...ALLOW, "--output-format", "claude-stream-json", "--verbose"]);
  expect(r.code).toBe(0);
  const ours = lines(r.stdout);
  const theirs = (await recordedLines("files")).filter((l) => l.type !== "system" || l.subtype === "init");
  expectLinesLike(theirs, ours, ["system/init", "assistant", "user", "result"]);
  // each tool's structured tool_use_result
  const results = (ls: Line[]) => ls.filter((l) => l.type === "user").map((l) => l.tool_use_result);
  const [a, b] = [results(theirs), results(ours)];
  expect(b).toHaveLength(3);
  for (let i = 0; i < 3; i++) expect(shapeGaps(a[i], b[i], "", 3, ALLOWED_GAPS), `tool_use_result ${i}`).toEqual([]);
  // what scripts written for Claude Code read from it
  const recorded = await readFile(join(RECORDED, "files", "stdout.txt"), "utf8");
  expect(await jq(FINAL_TEXT, r.stdout)).toBe(await jq(FINAL_TEXT, recorded));
  expect(await jq(TOTAL_COST, r.stdout)).toBe(await jq(TOTAL_COST, recorded));
  expect(await jq(FILES_WRITTEN, r.stdout)).toBe(await jq(FILES_WRITTEN, recorded));
  expect(await jq(FILES_WRITTEN, r.stdout)).toBe("new.txt\nREADME.md\nREADME.md");
});

test.skipIf(!HAS_JQ)("claude-json, --max-turns, an API error and refused calls end as Claude Code ends them", async () => {
  {
    await using w = await claudeWorld();
    w.fake.script({ reply: [bashCall("echo hi", "toolu_j")] }, { reply: [text("all done")] });
    const r = await w.run(["-p", "run echo json", "--trust", ...ALLOW, "--output-format", "claude-json"]);
    expect(r.code).toBe(0);
    expectLinesLike(await recordedLines("json"), lines(r.stdout), ["result"]);
    expect(lines(r.stdout)).toHaveLength(1);
  }
  {
    await using w = await claudeWorld();
    w.fake.script({ reply: [bashCall("echo 1", "toolu_m1")] }, { reply: [bashCall("echo 2", "toolu_m2")] }, { reply: [text("all done")] });
    const r = await w.run(["-p", "loop", "--trust", ...ALLOW, "--max-turns", "1", "--output-format", "claude-stream-json", "--verbose"]);
    const theirs = (await recordedLines("max-turns")).find((l) => l.type === "result")!;
    expect(r.code).toBe(Number((await readFile(join(RECORDED, "max-turns", "exit"), "utf8")).trim()));
    const ours = lines(r.stdout).find((l) => l.type === "result")!;
    expect(shapeGaps(theirs, ours, "", 2, new Set(LINE_GAPS))).toEqual([]);
    expect({ subtype: ours.subtype, num_turns: ours.num_turns, terminal_reason: ours.terminal_reason, errors: ours.errors }).toEqual({ subtype: theirs.subtype, num_turns: theirs.num_turns, terminal_reason: theirs.terminal_reason, errors: theirs.errors });
  }
  {
    await using w = await claudeWorld();
    w.fake.script({ error: 400, body: { type: "error", error: { type: "invalid_request_error", message: "bad request from the fake" } } });
    const r = await w.run(["-p", "fail please", "--trust", "--output-format", "claude-stream-json", "--verbose"]);
    expect(r.code).toBe(1);
    const theirs = await recordedLines("api-error");
    const ours = lines(r.stdout);
    expectLinesLike(theirs, ours, ["assistant", "result"]);
    const result = ours.find((l) => l.type === "result")!;
    expect(result).toMatchObject({ is_error: true, api_error_status: 400, terminal_reason: "api_error" });
    expect(result.result).toStartWith("API Error: 400");
  }
});
