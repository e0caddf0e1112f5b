// rein against what the real Claude Code 2.1.332 sent for the same agent files
// (test/fixtures/claude-code/agent-fields): effort, inline and named mcpServers, skills,
// initialPrompt. Each test writes the recorded case's files, runs the compiled binary against the
// fake model, and checks its requests and its MCP servers' lifetime against the recording's.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { text } from "./harness.ts";
import { SLOW, EFFORT_BETA, recordedAgent, reinAgent, recordedEffort, reinEffort, reinBetas, reinTools, firstTexts, reinLifetime, task, recording, recordedLifetime, window, logged, setUp, REIN_NAME } from "./recorded-agents.ts";

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
    if (name !== "intent") continue;
    // -c: the initialPrompt goes with the next prompt again, as Claude Code's second run sent it
    w.fake.script({ reply: [text("again done")] });
    expect((await w.run(["-c", "-p", "AGAIN b.ts", "--agent", "intent", "-m", "claude-opus-4-5", "--trust"], SLOW)).code).toBe(0);
    const again = recording("intent").requests[1]!.last_user_texts.at(-1);
    expect(again).toBe("Look at AGAIN b.ts closely.");
    const last = w.fake.requests.at(-1)!.body.messages.at(-1).content;
    expect(typeof last === "string" ? last : last.filter((b: { type: string }) => b.type === "text").at(-1).text).toBe(again);
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
