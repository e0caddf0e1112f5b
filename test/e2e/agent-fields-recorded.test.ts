// rein against what the real Claude Code 2.1.332 sent for the same agent files
// (test/fixtures/claude-code/agent-fields: effort, inline mcpServers, skills, initialPrompt). Each
// test writes the recorded case's files, runs the compiled binary against the fake model, and checks
// its requests and its MCP server's lifetime against the recording's.
import { expect, test } from "bun:test";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CASES, writeAgentFiles } from "../fixtures/claude-code/agent-fields/cases.ts";
import type { FakeBlock, FakeStep, RecordedRequest } from "../fake/types.ts";
import { text, world, type World } from "./harness.ts";

const RECORDED = join(import.meta.dir, "..", "fixtures", "claude-code", "agent-fields", "recorded");
// Subagents and MCP servers in every run: generous on a loaded machine.
const SLOW = { timeoutMs: 80_000, env: { REIN_MCP_WAIT_MS: "25000" } };
const AGENTS = ["DEEP", "QUICK", "WIDE", "PLAIN", "LEAD", "HIGH", "INTENT", "NAMED", "HELPER", "HOOKED", "REMEMBERER", "BARE", "M-HAIKU", "M-SONNET", "M-OPUS", "M-FABLE", "M-INHERIT"] as const;
const EFFORT_BETA = "effort-2025-11-24";
/** Claude Code's tool names as rein names them (docs/agents.md); MCP tools keep theirs. */
const REIN_NAME: Record<string, string> = { Read: "read", Grep: "grep" };
/** Claude Code's tools as rein's: its own placeholder for deferred tools has no counterpart. */
const asRein = (tools: string[]) => tools.filter((t) => t !== "DeferredToolPlaceholder").map((t) => REIN_NAME[t] ?? t).sort();

type Digest = { n: number; subagent: boolean; model: string; output_config: { effort?: string } | null; "anthropic-beta": string[]; tools: string[]; system_agent: string[]; first_user_texts: string[]; markers: { system: string[]; messages: string[] } };
type Recording = { requests: Digest[]; events: string[] };

function recording(name: string): Recording {
  const dir = join(RECORDED, name);
  return { requests: JSON.parse(readFileSync(join(dir, "requests.json"), "utf8")), events: readFileSync(join(dir, "events.log"), "utf8").trim().split("\n") };
}

/** The agent whose prompt a system prompt carries ("" for none of the cases' agents: the main session). */
const agentIn = (system: string) => AGENTS.find((a) => system.includes(`${a}-AGENT-PROMPT`)) ?? "";
const recordedAgent = (d: Digest) => agentIn(d.system_agent.join("\n"));
const reinAgent = (r: RecordedRequest) => agentIn(JSON.stringify(r.body.system));
const recordedEffort = (d: Digest | undefined) => d?.output_config?.effort;
const reinEffort = (r: RecordedRequest | undefined) => r?.body.output_config?.effort as string | undefined;
const reinBetas = (r: RecordedRequest) => (r.headers["anthropic-beta"] ?? "").split(",").filter(Boolean);
const reinTools = (r: RecordedRequest) => (r.body.tools as { name: string }[]).map((t) => t.name).sort();
const firstTexts = (r: RecordedRequest): string[] => {
  const content = r.body.messages[0].content;
  return typeof content === "string" ? [content] : content.filter((b: { type: string }) => b.type === "text").map((b: { text: string }) => b.text.trim());
};

/**
 * The order of requests (by agent) and of the probe server's start and close: from the recording's
 * events.log (a close by signal, then its exit, is one close), or from rein's run (each scripted
 * reply logs its request's agent to the probe server's log before it is answered).
 */
function recordedLifetime(rec: Recording): string[] {
  const byN = new Map(rec.requests.map((d) => [d.n, recordedAgent(d)]));
  return rec.events.flatMap((line) => {
    const request = /^request (\d+)/.exec(line);
    if (request) return [`request ${byN.get(Number(request[1]))}`];
    if (line.startsWith("started")) return ["started"];
    return line.startsWith("signal-") || line.startsWith("closed") ? ["closed"] : [];
  });
}
const reinLifetime = (log: string) =>
  readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((line) => (line.startsWith("request") ? line : line.split(" ")[0]!));

/** What the server was up for: the agents of the requests between its start and its close. */
function window(lifetime: string[]): string[] {
  const start = lifetime.indexOf("started");
  const end = lifetime.indexOf("closed");
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return lifetime.slice(start + 1, end);
}

/** Each step answers one request and first logs which agent's it is, beside the probe server's lines. */
function logged(w: World, log: string, replies: (FakeBlock[] | FakeStep)[]): void {
  const step = (reply: FakeBlock[] | FakeStep): FakeStep => (Array.isArray(reply) ? { reply } : reply);
  w.fake.script(...replies.map((reply): FakeStep => ({ respond: (body) => (appendFileSync(log, `request ${agentIn(JSON.stringify(body.system))}\n`), step(reply)) })));
}
const task = (id: string, subagent_type: string, prompt: string): FakeBlock[] => [{ type: "tool_use", name: "task", id, input: { description: `run ${subagent_type}`, prompt, subagent_type } }];

/** A world with the recorded case's files (its agent files, and what the case adds: a .mcp.json). */
async function setUp(name?: string): Promise<{ w: World; log: string }> {
  const w = await world();
  const log = w.path("events.log");
  const files = { proj: w.cwd, log, command: process.execPath };
  writeAgentFiles(files);
  if (name) CASES[name]!.files?.(files);
  return { w, log };
}

test.concurrent("subagents as Claude Code ran them: effort per model, the tools offered, a preloaded skill, the inline server up for the task alone", async () => {
  const rec = recording("subagent");
  const { w, log } = await setUp();
  await using _ = w;
  // rein's tasks run in the foreground: the same turns in one order
  logged(w, log, [
    task("toolu_deep", "deep", "DEEP-TASK think it through"),
    [{ type: "tool_use", name: "mcp__probe__probe", id: "toolu_probe", input: {} }],
    [text("deep done")],
    task("toolu_quick", "quick", "QUICK-TASK answer fast"),
    [text("quick done")],
    task("toolu_wide", "wide", "WIDE-TASK look wide"),
    [text("wide done")],
    task("toolu_plain", "plain", "PLAIN-TASK look plain"),
    [text("plain done")],
    [text("all done")],
  ]);
  const run = await w.run(["-p", "SUBFIELDS go", "-m", "claude-sonnet-5-5", "--trust", "--allow", "mcp__probe"], SLOW);
  expect(run.code).toBe(0);
  expect(run.stderr).not.toContain("rein:");
  expect(run.stdout).toBe("all done\n");
  const ours = w.fake.requests;
  const recMain = rec.requests.find((d) => recordedAgent(d) === "")!;
  const reinMain = ours.find((r) => reinAgent(r) === "")!;

  for (const agent of ["DEEP", "QUICK", "WIDE", "PLAIN"]) {
    const theirs = rec.requests.filter((d) => recordedAgent(d) === agent);
    const mine = ours.filter((r) => reinAgent(r) === agent);
    expect(theirs.length).toBeGreaterThan(0);
    expect(mine.length).toBe(theirs.length);
    for (const [i, d] of theirs.entries()) {
      const r = mine[i]!;
      expect(d.subagent).toBe(true);
      expect(r.body.model).toBe(d.model);
      // Its own effort, capped at what its model takes (none to haiku-4-5); with none of its own, what its session asks.
      const expected = agent === "PLAIN" ? (recordedEffort(d) === recordedEffort(recMain) ? reinEffort(reinMain) : recordedEffort(d)) : recordedEffort(d);
      expect(`${agent} ${reinEffort(r)}`).toBe(`${agent} ${expected}`);
      // the effort beta goes with an effort and only then
      expect(d["anthropic-beta"].includes(EFFORT_BETA)).toBe(recordedEffort(d) !== undefined);
      expect(reinBetas(r).includes(EFFORT_BETA)).toBe(reinEffort(r) !== undefined);
      expect(reinTools(r)).toEqual(d.tools.map((t) => REIN_NAME[t] ?? t).sort());
      // The task's prompt first, alone; then each preloaded skill's body, naming its folder.
      const texts = firstTexts(r);
      expect(texts[0]).toBe(d.first_user_texts[0]!);
      const skills = d.first_user_texts.filter((t) => t.startsWith("Base directory for this skill: "));
      expect(texts.length).toBe(1 + skills.length);
      for (const [k, skill] of skills.entries()) {
        const [head, body] = skill.split("\n\n") as [string, string];
        expect(texts[1 + k]).toContain(head.slice("Base directory for this skill: ".length).replace("{ROOT}/proj", w.cwd));
        expect(texts[1 + k]).toContain(body);
      }
    }
  }
  // The recording has the cases it should: a cap (max to high), a model that takes none, the main model's xhigh.
  expect(rec.requests.filter((d) => recordedAgent(d) === "DEEP").map(recordedEffort)).toEqual(["high", "high"]);
  expect(rec.requests.filter((d) => recordedAgent(d) === "QUICK").map(recordedEffort)).toEqual([undefined]);
  // The skill's body went to the subagent alone.
  for (const r of ours.filter((r) => reinAgent(r) !== "DEEP")) expect(r.bodyText).not.toContain("GREET-SKILL-BODY");

  // The inline server was up for the deep task's requests, all of them, and no other agent's.
  const theirs = window(recordedLifetime(rec));
  const mine = window(reinLifetime(log));
  const deepRequests = (lifetime: string[]) => lifetime.filter((e) => e === "request DEEP").length;
  expect([...new Set(theirs)]).toEqual(["request DEEP"]);
  expect(deepRequests(theirs)).toBe(rec.requests.filter((d) => recordedAgent(d) === "DEEP").length);
  expect(mine).toEqual(theirs);
}, 120_000);

test.concurrent("the main agent as Claude Code ran it: initialPrompt after a blank line, no effort of its own, its inline server up for the whole session, no skill preloaded", async () => {
  const rec = recording("main");
  const { w, log } = await setUp();
  await using _ = w;
  logged(w, log, [
    [{ type: "tool_use", name: "mcp__leadprobe__probe", id: "toolu_lead_probe", input: {} }],
    task("toolu_plain", "plain", "PLAIN-TASK look plain"),
    [text("plain done")],
    [text("lead done")],
  ]);
  const run = await w.run(["-p", "MAINFIELDS go", "--agent", "lead", "-m", "claude-sonnet-5-5", "--trust", "--allow", "mcp__leadprobe"], SLOW);
  expect(run.code).toBe(0);
  expect(run.stderr).not.toContain("rein:");
  expect(run.stdout).toBe("lead done\n");
  const ours = w.fake.requests;
  const theirLead = rec.requests.filter((d) => recordedAgent(d) === "LEAD");
  const myLead = ours.filter((r) => reinAgent(r) === "LEAD");
  expect(myLead.length).toBe(3);
  // initialPrompt, a blank line, then the prompt given
  expect(firstTexts(myLead[0]!).at(-1)).toBe(theirLead[0]!.first_user_texts.at(-1)!);
  expect(theirLead[0]!.first_user_texts.at(-1)).toBe("Check the README first.\n\nMAINFIELDS go");
  // The lead's `effort: low` is not sent: Claude Code's lead asks what a session without an agent asks (its default).
  const noAgent = recording("subagent").requests.find((d) => recordedAgent(d) === "")!;
  for (const d of theirLead) expect(recordedEffort(d)).toBe(recordedEffort(noAgent));
  for (const r of myLead) expect(reinEffort(r)).toBeUndefined();
  // Not preloaded into the main agent: its `skills` are a subagent's.
  for (const d of theirLead) expect(d.first_user_texts.join("\n")).not.toContain("GREET-SKILL-BODY");
  for (const r of ours) expect(r.bodyText).not.toContain("GREET-SKILL-BODY");
  // Its server's tool is offered to it (Claude Code behind ToolSearch), not to the plain subagent it starts.
  expect(theirLead.some((d) => d.tools.includes("mcp__leadprobe__probe"))).toBe(true);
  expect(myLead.every((r) => reinTools(r).includes("mcp__leadprobe__probe"))).toBe(true);
  const theirPlain = rec.requests.find((d) => recordedAgent(d) === "PLAIN")!;
  const myPlain = ours.find((r) => reinAgent(r) === "PLAIN")!;
  expect(reinTools(myPlain)).toEqual(theirPlain.tools.map((t) => REIN_NAME[t] ?? t).sort());
  // A subagent with no effort of its own asks what its session asks.
  expect(recordedEffort(theirPlain)).toBe(recordedEffort(theirLead[0]));
  expect(reinEffort(myPlain)).toBe(reinEffort(myLead[0]));
  // The lead's inline server was up for every request of the session: started before the first, closed after the last.
  // (Claude Code then ends it with SIGINT before it exits; rein kills its servers when it exits, docs/mcp.md.)
  const theirs = recordedLifetime(rec);
  const mine = [...reinLifetime(log), "closed"];
  expect(theirs.at(-1)).toBe("closed");
  expect(window(theirs)).toEqual(theirs.filter((e) => e.startsWith("request")));
  expect(window(mine)).toEqual(mine.filter((e) => e.startsWith("request")));
  expect(mine.filter((e) => e.startsWith("request"))).toEqual(["request LEAD", "request LEAD", "request PLAIN", "request LEAD"]);
}, 120_000);

test.concurrent("initialPrompt with {{intent}}, and a main agent's effort above or below its model's default: as Claude Code sent them", async () => {
  const { w } = await setUp();
  await using _ = w;
  const cases = [
    { name: "intent", args: ["-p", "INTENTFIELDS a.ts", "--agent", "intent", "-m", "claude-opus-4-5"] },
    { name: "main-high", args: ["-p", "MAINHIGH go", "--agent", "high", "-m", "claude-sonnet-5-5"] },
    { name: "main-default", args: ["-p", "MAINDEFAULT go", "--agent", "lead"] },
  ];
  for (const { name, args } of cases) {
    const [theirs] = recording(name).requests;
    w.fake.script({ reply: [text(`${name} done`)] });
    const run = await w.run([...args, "--trust"], SLOW);
    expect(run.code).toBe(0);
    const mine = w.fake.requests.at(-1)!;
    expect(firstTexts(mine).at(-1)).toBe(theirs!.first_user_texts.at(-1)!);
    // Claude Code sends its model's default, never the agent's level (medium to opus-4-5, xhigh, low): rein sends none.
    const asked = readFileSync(w.path(".claude", "agents", `${name === "intent" ? "intent" : name === "main-high" ? "high" : "lead"}.md`), "utf8").match(/effort: (\w+)/)![1];
    expect(recordedEffort(theirs)).not.toBe(asked);
    expect(reinEffort(mine)).toBeUndefined();
  }
  expect(recording("intent").requests[0]!.first_user_texts).toEqual(["Look at INTENTFIELDS a.ts closely."]);
}, 120_000);

test.concurrent("mcpServers naming a configured server: its tools past the subagent's tools list, the server up for the whole session", async () => {
  const rec = recording("named");
  const { w, log } = await setUp("named");
  await using _ = w;
  logged(w, log, [task("toolu_named", "named", "NAMED-TASK use the probe"), [{ type: "tool_use", name: "mcp__probe__probe", id: "toolu_probe", input: {} }], [text("named done")], [text("all done")]]);
  const run = await w.run(["-p", "NAMEDFIELDS go", "-m", "claude-sonnet-5-5", "--trust", "--allow", "mcp__probe"], SLOW);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("all done\n");
  const theirs = rec.requests.filter((d) => recordedAgent(d) === "NAMED");
  const mine = w.fake.requests.filter((r) => reinAgent(r) === "NAMED");
  expect(mine.length).toBe(theirs.length);
  for (const [i, d] of theirs.entries()) expect(reinTools(mine[i]!)).toEqual(d.tools.map((t) => REIN_NAME[t] ?? t).sort());
  expect(JSON.stringify(mine[1]!.body.messages)).toMatch(/probe pid \d+/);
  // A configured server is the session's: started before the first request, not closed before the last.
  const recorded = recordedLifetime(rec);
  expect(window(recorded)).toEqual(recorded.filter((e) => e.startsWith("request")));
  const ours = [...reinLifetime(log), "closed"];
  expect(window(ours)).toEqual(ours.filter((e) => e.startsWith("request")));
}, 120_000);

test.concurrent("an API that refuses a subagent's effort: the request is sent again without it and without the beta, and its next turn sends none", async () => {
  const rec = recording("effort-refused");
  const { w, log } = await setUp();
  await using _ = w;
  const refused = { type: "error", error: { type: "invalid_request_error", message: "output_config.effort: Extra inputs are not permitted" } };
  logged(w, log, [task("toolu_deep", "deep", "DEEP-TASK think it through"), { error: 400, body: refused }, [{ type: "tool_use", name: "mcp__probe__probe", id: "toolu_probe", input: {} }], [text("deep done")], [text("all done")]]);
  const run = await w.run(["-p", "REFUSEDFIELDS go", "-m", "claude-sonnet-5-5", "--trust", "--allow", "mcp__probe"], SLOW);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("all done\n");
  const theirs = rec.requests.filter((d) => recordedAgent(d) === "DEEP");
  const mine = w.fake.requests.filter((r) => reinAgent(r) === "DEEP");
  expect(theirs.map(recordedEffort)).toEqual(["high", undefined, undefined]);
  expect(mine.map(reinEffort)).toEqual(theirs.map(recordedEffort));
  expect(mine.map((r) => reinBetas(r).includes(EFFORT_BETA))).toEqual(theirs.map((d) => d["anthropic-beta"].includes(EFFORT_BETA)));
  expect(run.stderr).not.toContain("Extra inputs");
}, 120_000);

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
