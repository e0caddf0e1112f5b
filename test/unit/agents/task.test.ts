import { beforeEach, expect, test } from "bun:test";
import * as v from "valibot";
import { builtinAgents } from "../../../src/agents/builtin.ts";
import type { AgentDefinition } from "../../../src/agents/types.ts";
import type { StampedEvent } from "../../../src/agent/types.ts";
import type { Tool } from "../../../src/sdk.ts";
import { ruleSet } from "../../../src/app/factory.ts";
import { Session } from "../../../src/session/session.ts";
import { withSubagents } from "../../../src/session/subagents.ts";
import type { FakeBlock, FakeStep } from "../../fake/types.ts";
import { eventLog } from "../../support/event-log.ts";
import { type Kit, type SessionSetup, sentResults, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const poke: Tool = {
  name: "poke",
  description: "pokes",
  input: v.object({ n: v.number() }),
  run: (input) => `poked ${(input as { n: number }).n}`,
};
const named = (name: string): Tool => ({ ...poke, name });
const looper: AgentDefinition = { name: "looper", description: "keeps calling tools", prompt: "LOOPER AGENT", rules: [], mode: "subagent", maxTurns: 2, source: "built-in", project: false };

function start(setup: SessionSetup & { agents?: AgentDefinition[]; cap?: number } = {}) {
  const agents = setup.agents ?? [...builtinAgents(kit.dir.path), looper];
  const options = withSubagents(kit.options({ tools: [poke, named("read"), named("write")], ...setup }), { agents, ...(setup.cap ? { cap: setup.cap } : {}) });
  const session = Session.create(kit.dir.path, options);
  return { session, log: eventLog(session) };
}

const system = (body: { system?: unknown }) => JSON.stringify(body.system ?? "");
const isChild = (body: { system?: unknown }) => /explore agent|You are a subagent|LOOPER AGENT/.test(system(body));
const task = (input: Record<string, unknown>, id?: string): FakeBlock => ({ type: "tool_use", name: "task", input: { description: "look", prompt: "find the config", subagent_type: "explore", ...input }, ...(id ? { id } : {}) });
const text = (t: string): FakeStep => ({ reply: [{ type: "text", text: t }], usage: { input_tokens: 10, output_tokens: 5 } });
/** `n` steps that answer children with `child` and the parent with `parent`, whatever order they come in. */
const routed = (n: number, child: (body: any) => FakeStep, parent: (body: any) => FakeStep): FakeStep[] =>
  Array.from({ length: n }, () => ({ respond: (body: any) => (isChild(body) ? child(body) : parent(body)) }));
const lastResult = (body: any) => sentResults({ body } as never).at(-1);

test("a task runs a child session that answers in one turn: the parent gets its text, a task_id and a usage line; the child is stored and linked", async () => {
  const { session, log } = start();
  kit.fake.script({ reply: [task({}, "toolu_task_1")], usage: { input_tokens: 100, output_tokens: 20 } }, ...routed(1, () => text("The config is in src/config/load.ts."), () => text("")), text("It is in load.ts."));

  const result = await session.prompt("where is the config read?");

  expect(result).toMatchObject({ status: "success", text: "It is in load.ts." });
  const [child] = kit.store.childSessions(session.id);
  expect(child).toMatchObject({ parent_id: session.id, parent_tool_use_id: "toolu_task_1", agent: "explore" });
  const sent = kit.fake.requests[1]!.body;
  expect(system(sent)).toContain("You are rein, under test.");
  expect(system(sent)).toContain("explore agent");
  expect(JSON.stringify(sent.messages)).not.toContain("where is the config read?");
  expect(sent.tools.map((t: { name: string }) => t.name)).toEqual(["read"]);
  const back = sentResults(kit.fake.requests[2]).at(-1)!;
  expect(back.is_error).toBeUndefined();
  expect(back.content).toContain(`task_id: ${child!.id}\n<task_result>\nThe config is in src/config/load.ts.\n</task_result>`);
  expect(back.content).toMatch(/\(explore on claude-test-1: 1 turn, 10 tokens in, 5 out, cost unknown, [\d.]+ s\)/);
  // the child's events: stored in its own session, shown on the parent's stream with the task call's id
  const forwarded = log.events.filter((e) => e.parent_tool_use_id === "toolu_task_1");
  expect(forwarded.map((e) => e.type)).toEqual(kit.store.events(child!.id).map((e) => e.type));
  expect(forwarded[0]).toMatchObject({ type: "session", session_id: child!.id, agent: "explore" });
  expect(kit.store.events(session.id).some((e) => e.session_id === child!.id)).toBe(false);
  // usage rolls up: the parent's two turns and the child's one
  expect(result.usage).toMatchObject({ input_tokens: 100 + 10 + 10, output_tokens: 20 + 5 + 5 });
  // a child session is neither listed nor continued as a session of its own
  expect(kit.store.listSessions().map((s) => s.id)).toEqual([session.id]);
});

test("an unknown subagent_type gets an error listing the known agents, and the parent goes on", async () => {
  const { session } = start();
  kit.fake.script({ reply: [task({ subagent_type: "nope" })] }, text("ok"));
  expect((await session.prompt("go")).status).toBe("success");
  const back = sentResults(kit.fake.requests[1]).at(-1)!;
  expect(back.is_error).toBe(true);
  expect(back.content).toContain('Unknown subagent_type "nope". Known agents: explore, general, looper.');
});

test("a child that fails, or runs past its turn limit, is an error result to the parent, which goes on", async () => {
  const { session } = start();
  const failing = { error: 400 } as FakeStep;
  const toolTurn: FakeStep = { reply: [{ type: "tool_use", name: "poke", input: { n: 1 } }] };
  kit.fake.script(
    { reply: [task({ subagent_type: "general" }), task({ subagent_type: "looper" })] },
    ...routed(3, (body) => (system(body).includes("LOOPER") ? toolTurn : failing), () => text("")),
    { respond: (body: any) => text(JSON.stringify(sentResults({ body } as never).map((r) => [r.is_error, String(r.content).split("\n")[0]]))) },
  );
  const result = await session.prompt("go");
  expect(result.status).toBe("success");
  const outcomes = JSON.parse(result.text) as [boolean, string][];
  expect(outcomes).toEqual([
    [true, expect.stringMatching(/^The general subagent did not finish \(error\): /)],
    [true, "The looper subagent did not finish (max_turns): stopped after 2 turns (--max-turns)."],
  ]);
});

test("ten task calls in one turn all run, at most four at a time", async () => {
  const { session, log } = start();
  const calls = Array.from({ length: 10 }, (_, i) => task({ prompt: `part ${i}` }));
  kit.fake.script({ reply: calls }, ...routed(10, (body) => text(`answer to ${JSON.stringify(body.messages[0].content).match(/part \d/)![0]}`), () => text("")), text("all done"));
  let running = 0;
  let most = 0;
  session.subscribe((e) => {
    if (!e.parent_tool_use_id) return;
    if (e.type === "session") most = Math.max(most, ++running);
    if (e.type === "result") running--;
  });
  expect((await session.prompt("go")).text).toBe("all done");
  const results = sentResults(kit.fake.requests.at(-1));
  expect(results.map((r) => String(r.content).match(/answer to (part \d)/)?.[1])).toEqual(calls.map((_, i) => `part ${i}`));
  expect(most).toBeLessThanOrEqual(4);
  expect(most).toBeGreaterThan(1);
  expect(kit.store.childSessions(session.id)).toHaveLength(10);
  expect(log.of("result").filter((e) => !e.parent_tool_use_id)).toHaveLength(1);
});

test("aborting the parent aborts its running child; both end interrupted and the child stays stored", async () => {
  const { session, log } = start();
  kit.fake.script({ reply: [task({}, "toolu_hang")] }, { hang: true, afterText: "searching" });
  const run = session.prompt("go");
  await log.waitFor("text_delta", (e) => e.parent_tool_use_id === "toolu_hang");
  session.abort();
  expect((await run).status).toBe("interrupted");
  const [child] = kit.store.childSessions(session.id);
  expect(kit.store.events(child!.id).at(-1)).toMatchObject({ type: "result", status: "interrupted" });
});

test("subagents nest at most three deep: a task call at depth 3 is refused with why", async () => {
  const { session } = start();
  const deeper = (body: any) => {
    const last = lastResult(body);
    return last ? text(String(last.content)) : { reply: [task({ subagent_type: "general" })] };
  };
  kit.fake.script({ reply: [task({ subagent_type: "general" })] }, ...routed(6, deeper, () => text("")), { respond: (body: any) => text(String(lastResult(body)!.content)) });
  const result = await session.prompt("recurse");
  const [child] = kit.store.childSessions(session.id);
  const [grandchild] = kit.store.childSessions(child!.id);
  expect(kit.store.childSessions(grandchild!.id)).toHaveLength(1);
  expect(result.text).toContain("subagents nest at most 3 deep and this one is at depth 3");
});

test("in print mode a child's ask gets the --on-ask policy: denied, the child tells the parent, which goes on", async () => {
  const rules = ruleSet("default", { user: [], project: [], flags: [] });
  const { session } = start({ rules, askPolicy: () => ({ reply: "reject", explain: "Permission needed: poke (--on-ask deny)" }) });
  kit.fake.script(
    { reply: [task({ subagent_type: "general" })] },
    ...routed(2, (body) => (lastResult(body) ? text(`child saw: ${lastResult(body)!.content}`) : { reply: [{ type: "tool_use", name: "poke", input: { n: 2 } }] }), () => text("")),
    { respond: (body: any) => text(String(lastResult(body)!.content)) },
  );
  const result = await session.prompt("go");
  expect(result.text).toContain("child saw: Permission needed: poke (--on-ask deny)");
});

test("a child's ask reaches whoever holds the parent and is answered there", async () => {
  const rules = ruleSet("default", { user: [], project: [], flags: [] });
  const { session, log } = start({ rules });
  kit.fake.script(
    { reply: [task({ subagent_type: "general" })] },
    ...routed(2, (body) => (lastResult(body) ? text(`child got: ${lastResult(body)!.content}`) : { reply: [{ type: "tool_use", name: "poke", input: { n: 3 } }] }), () => text("")),
    { respond: (body: any) => text(String(lastResult(body)!.content)) },
  );
  const run = session.prompt("go");
  const ask = (await log.waitFor("permission_ask", (e) => e.parent_tool_use_id !== undefined)) as StampedEvent & { id: string };
  expect(session.reply(ask.id, "once")).toBe(true);
  expect((await run).text).toContain("child got: poked 3");
});

test("an \"always\" given to a subagent's ask holds for that agent's later tasks in the session", async () => {
  const rules = ruleSet("default", { user: [], project: [], flags: [] });
  const { session, log } = start({ rules });
  const childPokes = (body: any) => (lastResult(body) ? text(`child got: ${lastResult(body)!.content}`) : { reply: [{ type: "tool_use", name: "poke", input: { n: 4 } }] } as FakeStep);
  kit.fake.script({ reply: [task({ subagent_type: "general" })] }, ...routed(2, childPokes, () => text("")), text("first done"));
  const first = session.prompt("go");
  const ask = (await log.waitFor("permission_ask", (e) => e.parent_tool_use_id !== undefined)) as StampedEvent & { id: string };
  session.reply(ask.id, "always");
  expect((await first).text).toBe("first done");

  kit.fake.script({ reply: [task({ subagent_type: "general" })] }, ...routed(2, childPokes, () => text("")), { respond: (body: any) => text(String(lastResult(body)!.content)) });
  const second = await session.prompt("again");
  // the second general child ran its poke without asking anyone
  expect(log.of("permission_ask").filter((e) => e.parent_tool_use_id)).toHaveLength(1);
  expect(second.text).toContain("child got: poked 4");
});
