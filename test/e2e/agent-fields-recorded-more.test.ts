// rein against Claude Code 2.1.332's recordings of agent files (test/fixtures/claude-code/agent-fields),
// continued: a plugin's agent, an agent's hooks, memory and omitClaudeMd, model names, permissionMode,
// effort's other forms.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { FakeBlock, RecordedRequest } from "../fake/types.ts";
import { text } from "./harness.ts";
import { SLOW, asRein, recordedAgent, reinAgent, recordedEffort, reinEffort, reinTools, firstTexts, reinLifetime, task, recording, logged, setUp } from "./recorded-agents.ts";

test.concurrent("a plugin's agent: as a subagent its effort and its plugin's skill (named without the prefix) hold, its inline server does not; as the main agent its initialPrompt does not", async () => {
  const { w, log } = await setUp("plugin");
  await using _ = w;
  expect((await w.run(["plugin", "install", w.path(".plugins", "kit"), "--yes"])).code).toBe(0);
  logged(w, log, [task("toolu_helper", "kit:helper", "HELPER-TASK help out"), [text("helper done")], [text("all done")]]);
  const run = await w.run(["-p", "PLUGINFIELDS go", "-m", "claude-sonnet-5-5", "--trust"], SLOW);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("all done\n");
  const [theirs] = recording("plugin").requests.filter((d) => recordedAgent(d) === "HELPER");
  const mine = w.fake.requests.filter((r) => reinAgent(r) === "HELPER");
  expect(mine).toHaveLength(1);
  expect(mine[0]!.body.model).toBe(theirs!.model);
  expect(reinEffort(mine[0])).toBe(recordedEffort(theirs));
  expect(recordedEffort(theirs)).toBe("high");
  expect(reinTools(mine[0]!)).toEqual(asRein(theirs!.tools));
  const texts = firstTexts(mine[0]!);
  expect(texts[0]).toBe(theirs!.first_user_texts[0]!);
  const skill = theirs!.first_user_texts.find((t) => t.startsWith("Base directory for this skill: "))!;
  expect(skill).toEndWith("/skills/tips\n\nPLUGIN-TIPS-BODY: give one tip.");
  expect(texts).toHaveLength(2);
  expect(texts[1]).toContain("PLUGIN-TIPS-BODY: give one tip.");
  // Neither started its inline server (Claude Code's log has no start either).
  expect(recording("plugin").events.some((e) => e.startsWith("started"))).toBe(false);
  expect(reinLifetime(log).includes("started")).toBe(false);

  const [main] = recording("plugin-main").requests;
  w.fake.script({ reply: [text("plugin main done")] });
  const alone = await w.run(["-p", "PLUGINMAIN go", "--agent", "kit:helper", "-m", "claude-sonnet-5-5", "--trust"], SLOW);
  expect(alone.code).toBe(0);
  const sent = w.fake.requests.at(-1)!;
  expect(firstTexts(sent).at(-1)).toBe(main!.first_user_texts.at(-1)!);
  expect(main!.first_user_texts.at(-1)).toBe("PLUGINMAIN go");
  expect(reinTools(sent)).toEqual(asRein(main!.tools));
  expect(reinEffort(sent)).toBeUndefined();
}, 120_000);

/** The hook lines of an events.log (`hook WHICH-EVENT main|sub`), as a set: Claude Code's main turn also ends (Stop) while its background task runs. */
const hookLines = (lines: string[]) => [...new Set(lines.filter((l) => l.startsWith("hook ")))].sort();

test.concurrent("an agent's own hooks: in its task only, its Stop and its SubagentStop both at its end; the settings' hooks everywhere", async () => {
  const rec = recording("hooks");
  const { w, log } = await setUp("hooks");
  await using _ = w;
  logged(w, log, [
    task("toolu_hooked", "hooked", "HOOKED-TASK read the readme"),
    [{ type: "tool_use", name: "read", id: "toolu_sub_read", input: { path: w.path("README.md") } }],
    [text("read done")],
    [{ type: "tool_use", name: "read", id: "toolu_main_read", input: { path: w.path("other.txt") } }],
    [text("all done")],
  ]);
  await Bun.write(w.path("README.md"), "hello\n");
  const run = await w.run(["-p", "HOOKSFIELDS go", "-m", "claude-sonnet-5-5", "--trust"], SLOW);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("all done\n");
  expect(hookLines(rec.events)).toEqual([
    "hook agent-PreToolUse-Read sub",
    "hook agent-Stop sub",
    "hook agent-SubagentStop sub",
    "hook settings-PreToolUse main",
    "hook settings-PreToolUse sub",
    "hook settings-Stop main",
    "hook settings-SubagentStop sub",
  ]);
  expect(hookLines(readFileSync(log, "utf8").trim().split("\n"))).toEqual(hookLines(rec.events));
}, 120_000);

test.concurrent("memory: its MEMORY.md in the subagent's system prompt with read, write and edit; omitClaudeMd: no CLAUDE.md in its request", async () => {
  const rec = recording("memory");
  const { w, log } = await setUp("memory");
  await using _ = w;
  logged(w, log, [task("toolu_mem", "rememberer", "REMEMBER-TASK remember"), [text("remembered")], task("toolu_bare", "bare", "BARE-TASK go bare"), [text("bare done")], [text("all done")]]);
  const run = await w.run(["-p", "MEMORYFIELDS go", "-m", "claude-sonnet-5-5", "--trust"], SLOW);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("all done\n");
  const has = (r: RecordedRequest, marker: string) => ({ system: JSON.stringify(r.body.system).includes(marker), messages: JSON.stringify(r.body.messages).includes(marker) });
  for (const agent of ["", "REMEMBERER", "BARE"]) {
    const theirs = rec.requests.find((d) => recordedAgent(d) === agent)!;
    const mine = w.fake.requests.find((r) => reinAgent(r) === agent)!;
    // The memory file is in the system prompt, as Claude Code puts it.
    expect(`${agent} ${has(mine, "MEMORY-MARKER").system}`).toBe(`${agent} ${theirs.markers.system.includes("MEMORY-MARKER")}`);
    // CLAUDE.md: in Claude Code's first message, in rein's system prompt; reaching the same agents.
    const claudeMd = has(mine, "CLAUDE-MD-MARKER");
    expect(`${agent} ${claudeMd.system || claudeMd.messages}`).toBe(`${agent} ${[...theirs.markers.system, ...theirs.markers.messages].includes("CLAUDE-MD-MARKER")}`);
    if (agent) expect(reinTools(mine)).toEqual(asRein(theirs.tools).map((t) => ({ Write: "write", Edit: "edit" })[t] ?? t).sort());
  }
}, 120_000);

test.concurrent("model names in agent files as Claude Code resolves them: an alias of the parent's family is the parent's model, another the newest of its family; disallowedTools; maxTurns", async () => {
  const { w, log } = await setUp("models");
  await using _ = w;
  const answer = (type: string): FakeBlock[][] => [task(`toolu_${type}`, `m-${type}`, `M-${type.toUpperCase()}-TASK answer`), [text(`${type} done`)]];
  logged(w, log, [...answer("haiku"), ...answer("sonnet"), ...answer("opus"), ...answer("fable"), task("toolu_inherit", "m-inherit", "M-INHERIT-TASK answer"), [{ type: "tool_use", name: "read", id: "toolu_read", input: { path: w.path("README.md") } }], [text("all done")]]);
  const run = await w.run(["-p", "MODELFIELDS go", "-m", "claude-opus-4-5", "--trust"], SLOW);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("all done\n");
  const rec = recording("models");
  for (const agent of ["M-HAIKU", "M-SONNET", "M-OPUS", "M-FABLE", "M-INHERIT"]) {
    const theirs = rec.requests.filter((d) => recordedAgent(d) === agent);
    const mine = w.fake.requests.filter((r) => reinAgent(r) === agent);
    // one request each: M-INHERIT's maxTurns: 1 ends it at its first answer, a tool call
    expect(`${agent} ${mine.length}`).toBe(`${agent} ${theirs.length}`);
    expect(`${agent} ${mine[0]!.body.model}`).toBe(`${agent} ${theirs[0]!.model}`);
    expect(reinTools(mine[0]!)).toEqual(asRein(theirs[0]!.tools));
  }
  expect(rec.requests.filter((d) => recordedAgent(d).startsWith("M-")).map((d) => d.model)).toEqual(["claude-haiku-5-5", "claude-sonnet-5-5", "claude-opus-4-5", "claude-fable-5-2", "claude-opus-4-5"]);

  // Under claude-sonnet-4-5: sonnet is the parent's model, opus the newest opus.
  const before = w.fake.requests.length;
  w.fake.script(...[task("toolu_s", "m-sonnet", "M-SONNET-TASK answer"), [text("sonnet done")], task("toolu_o", "m-opus", "M-OPUS-TASK answer"), [text("opus done")], [text("all done")]].map((reply) => ({ reply })));
  expect((await w.run(["-p", "MODELSONNET go", "-m", "claude-sonnet-4-5", "--trust"], SLOW)).code).toBe(0);
  const theirs = recording("models-sonnet").requests.filter((d) => d.subagent).map((d) => `${recordedAgent(d)} ${d.model}`);
  expect(theirs).toEqual(["M-SONNET claude-sonnet-4-5", "M-OPUS claude-opus-5-5"]);
  expect(w.fake.requests.slice(before).filter((r) => reinAgent(r)).map((r) => `${reinAgent(r)} ${r.body.model}`)).toEqual(theirs);
}, 120_000);

test.concurrent("permissionMode of a subagent: one without it is refused in print mode, as in Claude Code; acceptEdits loosens nothing in rein (Claude Code lets it write)", async () => {
  const rec = recording("permissions");
  const { w, log } = await setUp("permissions");
  await using _ = w;
  const write = (id: string, file: string): FakeBlock[] => [{ type: "tool_use", name: "write", id, input: { path: w.path(file), content: "x\n" } }];
  logged(w, log, [task("toolu_editor", "editor", "EDITOR-TASK write a file"), write("toolu_w1", "by-editor.txt"), [text("editor wrote")], task("toolu_asker", "asker", "ASKER-TASK write a file"), write("toolu_w2", "by-asker.txt"), [text("asker wrote")], [text("all done")]]);
  const run = await w.run(["-p", "PERMFIELDS go", "-m", "claude-sonnet-5-5", "--trust"], SLOW);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("all done\n");
  const refused = async (agent: string, file: string) => {
    const mine = w.fake.requests.filter((r) => reinAgent(r) === agent)[1]!;
    const result = (mine.body.messages.at(-1).content as { type: string; is_error?: boolean }[]).find((b) => b.type === "tool_result")!;
    expect(await Bun.file(w.path(file)).exists()).toBe(result.is_error !== true);
    return result.is_error === true;
  };
  const theirs = (agent: string) => rec.requests.filter((d) => recordedAgent(d) === agent)[1]!.tool_results[0]!.is_error;
  expect(await refused("ASKER", "by-asker.txt")).toBe(theirs("ASKER"));
  expect(theirs("ASKER")).toBe(true);
  // A difference kept on purpose (docs/agents.md, "Permissions only tighten"): a subagent's own rules,
  // its permissionMode's among them, add only denies and asks; Claude Code's acceptEdits subagent wrote.
  expect(theirs("EDITOR")).toBe(false);
  expect(await refused("EDITOR", "by-editor.txt")).toBe(true);
}, 120_000);

test.concurrent("effort written as a number sends none (not even the session's); a level in another case (Low) is that level", async () => {
  const rec = recording("effort-forms");
  const { w, log } = await setUp("effort-forms");
  await using _ = w;
  logged(w, log, [task("toolu_n", "numbered", "NUMBERED-TASK answer"), [text("numbered done")], task("toolu_c", "cased", "CASED-TASK answer"), [text("cased done")], [text("all done")]]);
  const run = await w.run(["-p", "FORMFIELDS go", "-m", "claude-sonnet-5-5", "--trust"], SLOW);
  expect(run.code).toBe(0);
  const of = (agent: string) => [rec.requests.find((d) => recordedAgent(d) === agent), w.fake.requests.find((r) => reinAgent(r) === agent)] as const;
  const [theirNumber, myNumber] = of("NUMBERED");
  expect(theirNumber!.output_config).toBeNull();
  expect(myNumber!.body.output_config).toBeUndefined();
  const [theirCase, myCase] = of("CASED");
  expect(reinEffort(myCase)).toBe(recordedEffort(theirCase));
  expect(recordedEffort(theirCase)).toBe("low");
}, 120_000);
