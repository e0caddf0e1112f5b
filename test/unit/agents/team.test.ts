// Background workers through real sessions on the fake model: the task call returns at once, the
// worker's <task-notification> reaches the parent at its next turn boundary (or wakes it, or print
// mode waits for it), messages reach running and finished workers, task_stop and task_output, limits.
import { beforeEach, expect, test } from "bun:test";
import * as v from "valibot";
import { builtinAgents } from "../../../src/agents/builtin.ts";
import type { AgentDefinition } from "../../../src/agents/types.ts";
import type { Tool } from "../../../src/sdk.ts";
import { Session } from "../../../src/session/session.ts";
import { ruleSet } from "../../../src/app/factory.ts";
import { nameProblem, withSubagents } from "../../../src/session/subagents.ts";
import type { FakeBlock, FakeStep } from "../../fake/types.ts";
import { workerRows } from "../../../src/cli/term/worker-rows.ts";
import { eventLog } from "../../support/event-log.ts";
import { type Kit, type SessionSetup, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const poke: Tool = { name: "poke", description: "pokes", input: v.object({ n: v.number() }), run: (input) => `poked ${(input as { n: number }).n}` };
const worker: AgentDefinition = { name: "worker", description: "does one part", prompt: "WORKER AGENT", rules: [], mode: "subagent", source: "built-in", project: false };

function start(setup: SessionSetup & { workers?: number } = {}) {
  const agents = [...builtinAgents(kit.dir.path), worker];
  const options = withSubagents(kit.options({ tools: [poke], ...setup }), { agents, ...(setup.workers ? { workers: setup.workers } : {}) });
  const session = Session.create(kit.dir.path, options);
  return { session, log: eventLog(session) };
}

const system = (body: { system?: unknown }) => JSON.stringify(body.system ?? "");
const isWorker = (body: { system?: unknown }) => system(body).includes("WORKER AGENT");
const sent = (body: any) => JSON.stringify(body.messages);
const bg = (input: Record<string, unknown>, id?: string): FakeBlock => ({
  type: "tool_use",
  name: "task",
  input: { description: "a part", prompt: "do a part", subagent_type: "worker", run_in_background: true, ...input },
  ...(id ? { id } : {}),
});
const text = (t: string): FakeStep => ({ reply: [{ type: "text", text: t }], usage: { input_tokens: 10, output_tokens: 5 } });
const call = (name: string, input: unknown): FakeStep => ({ reply: [{ type: "tool_use", name, input }], usage: { input_tokens: 10, output_tokens: 5 } });
const route = (n: number, child: (body: any) => FakeStep, parent: (body: any) => FakeStep): FakeStep[] =>
  Array.from({ length: n }, () => ({ respond: (body: any) => (isWorker(body) ? child(body) : parent(body)) }));
const notifications = (body: any) => (sent(body).match(/<task-id>/g) ?? []).length;

test("a background task returns at once with its task id; in print mode the run waits and answers the notification, its usage included", async () => {
  const { session, log } = start();
  session.waitsForWorkers = true;
  kit.fake.script(
    { reply: [bg({ name: "alpha" }, "toolu_bg1")], usage: { input_tokens: 100, output_tokens: 20 } },
    ...route(2, () => text("the part is done"), () => text("started it; waiting")),
    { respond: (body: any) => text(notifications(body) === 1 ? "alpha finished: the part is done" : "no notification") },
  );

  const result = await session.prompt("split the work");

  expect(result.status).toBe("success");
  expect(result.text).toBe("alpha finished: the part is done");
  const [child] = kit.store.childSessions(session.id);
  expect(child).toMatchObject({ task_name: "alpha", task_state: "completed", parent_tool_use_id: "toolu_bg1" });
  const started = log.of("tool_end").find((e) => e.id === "toolu_bg1")!;
  expect(started.output).toStartWith(`task_id: ${child!.id}\nStarted the worker subagent in the background as "alpha"`);
  // the notification: a user message beginning <task-notification>, with the worker's id, status, result, usage
  const last = kit.fake.requests.at(-1)!.body.messages.at(-1);
  expect(last.role).toBe("user");
  expect(last.content[0].text).toStartWith(`<task-notification>\n<task-id>${child!.id}</task-id>\n<status>completed</status>\n<summary>Agent "alpha" completed</summary>\n<result>the part is done</result>\n<usage><total_tokens>15</total_tokens><tool_uses>0</tool_uses><duration_ms>`);
  expect(log.of("task_notification")).toEqual([expect.objectContaining({ task_id: child!.id, status: "completed", name: "alpha", tool_use_id: "toolu_bg1" })]);
  // the worker's spend rolls into the lead's result: 3 lead turns + 1 worker turn
  expect(result.usage).toMatchObject({ input_tokens: 100 + 10 + 10 + 10, output_tokens: 20 + 5 + 5 + 5 });
  expect(log.of("result").filter((e) => !e.parent_tool_use_id)).toHaveLength(1);
});

test("a notification that comes while the lead works reaches it at its next turn boundary, after that turn's tool results", async () => {
  const { session } = start();
  let release!: () => void;
  const slow = new Promise<void>((resolve) => (release = resolve));
  const waitPoke: Tool = { ...poke, name: "wait_poke", run: async () => (await new Promise((r) => setTimeout(r, 0)), await slow, "waited") };
  const options = withSubagents(kit.options({ tools: [poke, waitPoke] }), { agents: [...builtinAgents(kit.dir.path), worker] });
  const lead = Session.create(kit.dir.path, options);
  const leadLog = eventLog(lead);
  kit.fake.script(
    { reply: [bg({})] },
    ...route(2, () => text("worker says hi"), () => call("wait_poke", { n: 1 })),
    { respond: (body: any) => text(`seen ${notifications(body)}`) },
  );
  const run = lead.prompt("go");
  await leadLog.waitFor("task_notification");
  release();
  const result = await run;
  expect(result.text).toBe("seen 1");
  const boundary = kit.fake.requests.at(-1)!.body.messages.at(-1);
  expect(boundary.content[0].type).toBe("tool_result");
  expect(boundary.content[1].text).toStartWith("<task-notification>");
  void session;
});

test("an idle lead is woken when a worker ends: answerMail() answers the notification as a prompt of its own", async () => {
  const { session } = start();
  let woken = 0;
  session.onWake(() => woken++);
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  // the worker's one step waits on the gate: the lead's run ends first
  kit.fake.script(
    { reply: [bg({ name: "slowpoke" })] },
    ...route(2, () => ({ reply: [{ type: "text", text: "late answer" }], waitFor: gate }), () => text("I'll wait")),
  );
  const first = await session.prompt("start it");
  expect(first.text).toBe("I'll wait");
  finish();
  while (!session.hasMail) await Bun.sleep(5);
  expect(woken).toBeGreaterThan(0);
  kit.fake.script({ respond: (body: any) => text(`answered ${notifications(body)}`) });
  const woke = await session.answerMail();
  expect(woke).toMatchObject({ status: "success", text: "answered 1" });
  expect(await session.answerMail()).toBeUndefined();
});

test("send_message reaches a running worker at its next turn boundary, and resumes a finished one with its conversation", async () => {
  const { session, log } = start();
  session.waitsForWorkers = true;
  let gate!: () => void;
  const held = new Promise<void>((resolve) => (gate = resolve));
  const holdTool: Tool = { ...poke, name: "hold", readOnly: true, run: async () => (await held, "held") };
  const options = withSubagents(kit.options({ tools: [poke, holdTool] }), { agents: [...builtinAgents(kit.dir.path), worker] });
  const lead = Session.create(kit.dir.path, options);
  lead.waitsForWorkers = true;
  const leadLog = eventLog(lead);
  const workerStep = (body: any): FakeStep => {
    const s = sent(body);
    if (s.includes("second note")) return text("got the second note");
    if (s.includes("first note")) return text("got the first note");
    return call("hold", { n: 1 });
  };
  let phase = 0;
  const leadStep = (body: any): FakeStep => {
    phase++;
    if (phase === 1) return call("send_message", { to: "bee", message: "first note" });
    if (phase === 2) return text("sent");
    if (phase === 3) return call("send_message", { to: "bee", message: "second note" });
    if (phase === 4) return text("resumed it");
    return text(`done: ${notifications(body)} notifications`);
  };
  kit.fake.script({ reply: [bg({ name: "bee" })] }, ...route(8, workerStep, leadStep));
  const run = lead.prompt("go");
  await leadLog.waitFor("tool_end", (e) => e.name === "send_message");
  gate();
  const result = await run;
  expect(result.status).toBe("success");
  const [child] = kit.store.childSessions(lead.id);
  const workerRequests = kit.fake.requests.filter((r) => isWorker(r.body));
  // the first note arrived with the hold call's result; the second resumed the finished worker with its history
  expect(sent(workerRequests[1]!.body)).toContain('<message from=\\"lead\\">\\nfirst note\\n</message>');
  const resumed = workerRequests.at(-1)!.body;
  expect(sent(resumed)).toContain("got the first note");
  expect(sent(resumed)).toContain("second note");
  expect(leadLog.of("task_notification").map((e) => e.status)).toEqual(["completed", "completed"]);
  expect(kit.store.getSession(child!.id)!.task_state).toBe("completed");
  void session;
  void log;
});

test("task_stop ends a running worker (killed); task_output says what it has said and its state", async () => {
  const { session, log } = start();
  session.waitsForWorkers = true;
  let phase = 0;
  kit.fake.script(
    { reply: [bg({ name: "hang" }, "toolu_hang")] },
    ...route(5, () => ({ hang: true, afterText: "working on it" }), (body: any) => {
      phase++;
      if (phase === 1) return call("task_output", { task_id: "hang" });
      if (phase === 2) return call("task_stop", { task_id: "hang" });
      if (phase === 3) return text("stopped it");
      return text(`final ${notifications(body)}`);
    }),
  );
  let rows: string[] = [];
  session.subscribe((e) => {
    // Events reach listeners once committed (a tick later): read the rows while the worker surely runs,
    // when task_output's call is shown (the stop comes a model request after it).
    if (e.type === "tool_start" && e.name === "task_output") rows = workerRows(session, 80);
  });
  const result = await session.prompt("go");
  // the terminal's line for the running worker
  expect(rows).toEqual([expect.stringMatching(/^(\x1b\[\d+m)?⧗ worker hang · running · \$0\.0000/)]);
  expect(workerRows(session, 80)).toEqual([]);
  const output = log.of("tool_end").find((e) => e.name === "task_output")!;
  expect(output.output).toMatch(/^task_id: s_\S+\nstatus: running\n/);
  const stop = log.of("tool_end").find((e) => e.name === "task_stop")!;
  expect(stop.is_error).toBe(false);
  expect(log.of("task_notification")).toEqual([expect.objectContaining({ status: "killed", name: "hang" })]);
  expect(result.text).toBe("final 1");
  expect(sent(kit.fake.requests.at(-1)!.body)).toContain("<status>killed</status>");
});

test("ten background tasks in one turn: at most four run at once, all ten notify", async () => {
  const { session, log } = start();
  session.waitsForWorkers = true;
  const calls = Array.from({ length: 10 }, (_, i) => bg({ prompt: `part ${i}` }));
  let running = 0;
  let most = 0;
  session.subscribe((e) => {
    if (!e.parent_tool_use_id) return;
    if (e.type === "session") most = Math.max(most, ++running);
    if (e.type === "result") running--;
  });
  kit.fake.script({ reply: calls }, ...route(30, () => text("part done"), (body) => text(`have ${notifications(body)}`)));
  const result = await session.prompt("go");
  expect(result.text).toBe("have 10");
  expect(log.of("task_notification")).toHaveLength(10);
  expect(most).toBeLessThanOrEqual(4);
  expect(most).toBeGreaterThan(1);
  kit.fake.reset(); // the lead answered the notifications in as many batches as they came in
});

test("maxWorkers: with a cap of 2, five background tasks run at most two at once, and all notify", async () => {
  const { session, log } = start({ workers: 2 });
  session.waitsForWorkers = true;
  let running = 0;
  let most = 0;
  session.subscribe((e) => {
    if (!e.parent_tool_use_id) return;
    if (e.type === "session") most = Math.max(most, ++running);
    if (e.type === "result") running--;
  });
  kit.fake.script({ reply: Array.from({ length: 5 }, (_, i) => bg({ prompt: `part ${i}` })) }, ...route(20, () => text("part done"), (body) => text(`have ${notifications(body)}`)));
  expect((await session.prompt("go")).text).toBe("have 5");
  expect(log.of("task_notification")).toHaveLength(5);
  expect(most).toBe(2);
  kit.fake.reset();
});

test("one person answers: a worker's ask reaches the lead's stream naming the worker; its \"always\" holds for the team's other workers", async () => {
  const rules = ruleSet("default", { user: [], project: [], flags: [] });
  const { session, log } = start({ rules });
  session.waitsForWorkers = true;
  const pokeOnce = (body: any): FakeStep => (sent(body).includes("poked") ? text("poked it") : call("poke", { n: 7 }));
  let lead = 0;
  kit.fake.script(
    { reply: [bg({ name: "first" }, "toolu_first")] },
    ...Array.from({ length: 8 }, () => ({
      respond: (body: any) => {
        if (isWorker(body) || system(body).includes("You are a subagent")) return pokeOnce(body);
        lead++;
        if (lead === 1) return text("waiting");
        if (lead === 2) return { reply: [{ type: "tool_use", name: "task", input: { description: "second", prompt: "poke too", subagent_type: "general", run_in_background: true, name: "second" } }] } as FakeStep;
        if (lead === 3) return text("waiting again");
        return text("both poked");
      },
    })),
  );
  const run = session.prompt("go");
  const ask = (await log.waitFor("permission_ask", (e) => e.parent_tool_use_id === "toolu_first")) as { id: string; session_id: string };
  expect(ask.session_id).not.toBe(session.id); // the worker's id names who asks
  expect(session.reply(ask.id, "always")).toBe(true);
  const result = await run;
  expect(result).toMatchObject({ status: "success", text: "both poked" });
  expect(log.of("permission_ask")).toHaveLength(1);
  expect(log.of("task_notification").map((e) => e.name)).toEqual(["first", "second"]);
});

test("send_message to nobody, and a bad worker name, are errors saying what to do", async () => {
  const { session, log } = start();
  kit.fake.script(call("send_message", { to: "ghost", message: "hi" }), { reply: [bg({ name: "../x" })] }, text("ok"));
  await session.prompt("go");
  const [send, bad] = log.of("tool_end");
  expect(send).toMatchObject({ is_error: true });
  expect(send!.output).toContain('No worker "ghost" in this team. No worker has been started; or send to "lead".');
  expect(bad!.output).toContain('the worker name "../x" is not usable');
});

test("worker names: words only, not lead, not a task id", () => {
  expect(nameProblem("alpha-1")).toBeUndefined();
  for (const bad of ["", "../up", "/abs", "a b", "lead", "s_123", "x".repeat(41)]) expect(nameProblem(bad)).toBeString();
});

test("background bash joins the list: task_output reads its output, task_stop ends it, its end notifies", async () => {
  const bashTool = (await import("../../../tools/bash.ts")).default;
  const { session, log } = start({ tools: [poke, bashTool as unknown as Tool], rules: [{ permission: "*", pattern: "*", action: "allow" }] });
  session.waitsForWorkers = true;
  kit.fake.script(
    { reply: [{ type: "tool_use", name: "bash", input: { command: "echo started; sleep 30", background: true } }] },
    { respond: (body: any) => call("task_output", { task_id: /bash_\d+/.exec(sent(body))![0] }) },
    { respond: (body: any) => call("task_stop", { task_id: /bash_\d+/.exec(sent(body))![0] }) },
    text("stopped"),
  );
  await session.prompt("go");
  const output = log.of("tool_end").find((e) => e.name === "task_output")!;
  expect(output.output).toMatch(/^task_id: bash_\d+\nstatus: running\n/);
  expect(output.output).toContain("started");
  expect(log.of("tool_end").find((e) => e.name === "task_stop")!.is_error).toBe(false);
  while (log.of("task_notification").length === 0) await Bun.sleep(20);
  expect(log.of("task_notification")[0]).toMatchObject({ status: "killed", summary: 'Command "echo started; sleep 30" was stopped' });
  expect(session.team!.list(session.id)[0]).toMatchObject({ kind: "bash", state: "killed" });
});

test("--max-cost across a lead's runs: a run that answers its workers' notifications goes on with the spending of the run that started them", async () => {
  // claude-sonnet-5-5: 1000 tokens in and 100 out cost $0.003 a call; the cap is $0.01
  const usage = { input_tokens: 1000, output_tokens: 100 };
  const { session, log } = start({ model: "claude-sonnet-5-5", maxCost: 0.01 });
  let release!: () => void;
  const firstRunOver = new Promise<void>((resolve) => (release = resolve));
  const priced = (step: FakeStep): FakeStep => ({ ...step, usage });
  kit.fake.script(
    priced({ reply: [bg({ name: "spender" })] }),
    ...route(3, (body) => (sent(body).includes("poked 1") ? priced(text("spent it")) : { ...priced(call("poke", { n: 1 })), waitFor: firstRunOver }), () => priced(text("started it"))),
  );

  const first = await session.prompt("spend in the background");
  release();
  expect(first).toMatchObject({ status: "success", text: "started it" });
  // the worker spends two calls after the first run ended; its notification waits for the lead
  await new Promise<void>((resolve) => (log.of("task_notification").length ? resolve() : session.subscribe((e) => void (e.type === "task_notification" && resolve()))));
  const requests = kit.fake.requests.length;

  const second = await session.prompt("what did it find?");

  // $0.003 x 4 spent by the lead's first run and its worker: the next run starts over the cap and sends nothing
  expect(second.status).toBe("max_turns");
  expect(second.error).toContain("the cost budget of $0.01 was reached ($0.0120 spent)");
  expect(kit.fake.requests.length).toBe(requests);
  // once the cap has stopped a run, the next starts from $0 again (and reads the notification still waiting)
  kit.fake.script(priced(text("fresh")));
  expect(await session.prompt("and now?")).toMatchObject({ status: "success", text: "fresh" });
  expect(sent(kit.fake.requests.at(-1)!.body)).toContain("<task-notification>");
});
