// Teams through the compiled binary and the fake model: the coordinator starts background workers,
// messages one, stops another and answers their notifications before print mode writes its result;
// ten background tasks run at most four at once; SIGTERM of the lead stops its workers and their
// processes; -c after SIGKILL shows the dead workers as failed and sends a valid conversation.
import { expect, test } from "bun:test";
import { bash, killLeftovers, messagesOf, pidsMatching, text, waitFor, world } from "./harness.ts";

const RUN = Math.random().toString().slice(2, 8);
const body = (b: any) => JSON.stringify(b.messages);
const isLead = (b: any) => JSON.stringify(b.system).includes("You are the coordinator agent");
const promptOf = (b: any) => JSON.stringify(b.messages[0]?.content ?? "");
const notes = (b: any) => (body(b).match(/<task-id>/g) ?? []).length;
const bg = (name: string, prompt: string, id: string) => ({ type: "tool_use" as const, name: "task", id, input: { description: name, prompt, subagent_type: "general", run_in_background: true, name } });
const call = (name: string, input: unknown, id?: string) => ({ type: "tool_use" as const, name, input, ...(id ? { id } : {}) });

test.concurrent("the coordinator starts two background workers, messages one, stops the other, gets both notifications and answers", async () => {
  await using w = await world();
  let lead = 0;
  const step = (b: any) => {
    if (!isLead(b)) {
      const p = promptOf(b);
      if (p.includes("sleep forever")) return { hang: true as const, afterText: "sleeping" };
      // the reader: its first turn is slow, so the lead's message is there at its turn boundary or right after
      if (body(b).includes("also check the tests")) return { reply: [text("read it all, tests included")] };
      return { reply: [call("read", { path: "notes.txt" })], delayMs: 150 };
    }
    lead++;
    if (lead === 1) return { reply: [bg("reader", "read notes.txt", "toolu_r"), bg("sleeper", "sleep forever", "toolu_s")] };
    if (lead === 2) return { reply: [call("send_message", { to: "reader", message: "also check the tests" }), call("task_stop", { task_id: "sleeper" })] };
    if (lead === 3) return { reply: [text("waiting for the workers")] };
    return { reply: [text(notes(b) >= 2 ? "both workers reported: done" : `only ${notes(b)} so far`)] };
  };
  w.fake.script(...Array.from({ length: 12 }, () => ({ respond: step })));
  await Bun.write(w.path("notes.txt"), "alpha\n");

  const r = await w.runStream(["-p", "review the notes", "--agent", "coordinator", "--trust"]);

  expect(r.code).toBe(0);
  const lead0 = w.fake.requests.find((q) => isLead(q.body))!.body;
  // the coordinator: the team's tools up front, no bash, edit or write
  const offered = lead0.tools.map((t: { name: string }) => t.name);
  expect(offered).toEqual(expect.arrayContaining(["task", "send_message", "task_stop", "task_output", "read"]));
  for (const absent of ["bash", "edit", "write"]) expect(offered).not.toContain(absent);
  const notifications = r.events.filter((e) => e.type === "task_notification" && !e.parent_tool_use_id);
  expect(notifications.map((e) => [e.name, e.status]).sort()).toEqual([["reader", "completed"], ["sleeper", "killed"]]);
  // the workers' events came with the task call's id
  expect(r.events.some((e) => e.parent_tool_use_id === "toolu_r" && e.type === "tool_start" && e.name === "read")).toBe(true);
  const final = r.events.at(-1)!;
  expect(final).toMatchObject({ type: "result", status: "success", text: "both workers reported: done" });
  expect(r.events.filter((e) => e.type === "result" && !e.parent_tool_use_id)).toHaveLength(1);
  // the reader got the message
  const readerLast = w.fake.requests.filter((q) => !isLead(q.body) && promptOf(q.body).includes("read notes.txt")).at(-1)!;
  expect(body(readerLast.body)).toContain("also check the tests");
  // rein sessions show lists the workers with their state
  const shown = await w.run(["sessions", "show", final.session_id]);
  expect(shown.stdout).toMatch(/- general s_\w+ "reader" · completed/);
  expect(shown.stdout).toMatch(/- general s_\w+ "sleeper" · killed/);
}, 30_000);

test.concurrent("ten background tasks in one turn: at most four run at once, all ten notify, print mode answers them", async () => {
  await using w = await world();
  const calls = Array.from({ length: 10 }, (_, i) => ({ type: "tool_use" as const, name: "task", input: { description: `part ${i}`, prompt: `part ${i}`, subagent_type: "general", run_in_background: true } }));
  let first = true;
  const step = (b: any) => {
    const lead = !JSON.stringify(b.system).includes("You are a subagent");
    if (!lead) return { reply: [text("part done")], delayMs: 20 };
    if (first) return (first = false), { reply: calls };
    return { reply: [text(`notified ${notes(b)}`)] };
  };
  w.fake.script(...Array.from({ length: 30 }, () => ({ respond: step })));
  const r = await w.runStream(["-p", "split it", "--trust"]);
  expect(r.code).toBe(0);
  expect(r.events.at(-1)).toMatchObject({ type: "result", status: "success", text: "notified 10" });
  let running = 0;
  let most = 0;
  for (const e of r.events) {
    if (!e.parent_tool_use_id) continue;
    if (e.type === "session") most = Math.max(most, ++running);
    if (e.type === "result") running--;
  }
  expect(most).toBeLessThanOrEqual(4);
  expect(r.events.filter((e) => e.type === "task_notification")).toHaveLength(10);
}, 30_000);

test.concurrent("SIGTERM of the lead with a worker running: the worker and its command are stopped, the lead exits 143", async () => {
  await using w = await world();
  const command = `sleep 41.5${RUN}`;
  const step = (b: any) => {
    const lead = !JSON.stringify(b.system).includes("You are a subagent");
    if (!lead) return { reply: [bash(command)] };
    if (!body(b).includes("task_id")) return { reply: [bg("sleepy", "wait a while", "toolu_w")] };
    return { reply: [text("waiting")] };
  };
  w.fake.script(...Array.from({ length: 4 }, () => ({ respond: step })));
  const rein = w.start(["-p", "go", "--trust", "--allow", "bash(sleep *)", "--output-format", "stream-json"]);
  try {
    await waitFor(async () => (await pidsMatching(command)).length > 0, `${command} to be running`, 10_000);
    rein.kill("SIGTERM");
    const r = await rein.exited;
    expect(r.code).toBe(143);
    await waitFor(async () => (await pidsMatching(command)).length === 0, `no ${command} left`, 3_000);
    const shown = await w.run(["sessions", "list"]);
    const id = /s_\w+/.exec(shown.stdout)![0];
    expect((await w.run(["sessions", "show", id])).stdout).toMatch(/"sleepy" · killed/);
  } finally {
    await killLeftovers(command);
  }
}, 30_000);

test.concurrent("-c after SIGKILL of a lead with a worker running: the worker shows as failed and the conversation sent is valid", async () => {
  await using w = await world({ strict: true });
  const step = (b: any) => {
    const lead = !JSON.stringify(b.system).includes("You are a subagent");
    if (!lead) return { hang: true as const, afterText: "thinking" };
    if (!body(b).includes("task_id")) return { reply: [bg("ghost", "think hard", "toolu_g")] };
    return { reply: [text("waiting")] };
  };
  w.fake.script(...Array.from({ length: 3 }, () => ({ respond: step })));
  const rein = w.start(["-p", "go", "--trust", "--output-format", "stream-json"]);
  await rein.waitForStdout((out) => out.includes('"parent_tool_use_id":"toolu_g"') && out.includes('"text_delta"'), "the worker's text");
  rein.kill("SIGKILL");
  await rein.exited;

  const listed = await w.run(["sessions", "list"]);
  const id = /s_\w+/.exec(listed.stdout)![0];
  expect((await w.run(["sessions", "show", id])).stdout).toMatch(/"ghost" · failed \(its process ended\)/);
  w.fake.script({ reply: [text("carried on")] });
  const next = await w.run(["-c", "-p", "what happened?"]);
  expect(next).toMatchObject({ code: 0, stdout: "carried on\n" });
  const sent = messagesOf(w.fake.requests.at(-1));
  // the strict fake refuses a conversation the Messages API would (a tool call without its result)
  expect(sent.at(-1)!.role).toBe("user");
  expect(JSON.stringify(sent)).toContain("<status>failed</status>");
}, 30_000);

test.concurrent("worktree isolation: a changed worker's worktree is kept and named in its notification, an unchanged one is removed", async () => {
  await using w = await world();
  const git = (...args: string[]) => expect(Bun.spawnSync(["git", ...args], { cwd: w.cwd }).exitCode).toBe(0);
  git("init", "-q");
  await Bun.write(w.path("a.txt"), "one\n");
  git("add", "-A");
  git("-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "one");
  const bgw = (name: string) => ({ type: "tool_use" as const, name: "task", input: { description: name, prompt: `you are ${name}`, subagent_type: "general", run_in_background: true, name, isolation: "worktree" } });
  const step = (b: any) => {
    if (JSON.stringify(b.system).includes("You are a subagent")) {
      const me = promptOf(b);
      if (me.includes("changer") && !body(b).includes("tool_result")) return { reply: [call("write", { path: "b.txt", content: "two\n" })] };
      return { reply: [text(me.includes("changer") ? "changed a.txt" : "looked, changed nothing")] };
    }
    if (notes(b) >= 2) return { reply: [text("both reported")] };
    if (!body(b).includes("task_id")) return { reply: [bgw("changer"), bgw("looker")] };
    return { reply: [text("waiting")] };
  };
  w.fake.script(...Array.from({ length: 8 }, () => ({ respond: step })));
  const r = await w.runStream(["-p", "go", "--trust", "--allow", "edit"]);
  expect(r.code).toBe(0);
  expect(r.events.at(-1)).toMatchObject({ type: "result", status: "success", text: "both reported" });
  const sent = body(w.fake.requests.at(-1)!.body);
  const kept = /<worktree>path: ([^\\]+)\\nbranch: rein\/changer\\ndiffstat: 1 new file not yet added<\/worktree>/.exec(sent);
  expect(kept).not.toBeNull();
  expect(await Bun.file(`${kept![1]}/b.txt`).text()).toBe("two\n");
  expect(await Bun.file(w.path("b.txt")).exists()).toBe(false); // the lead's checkout is untouched
  const list = Bun.spawnSync(["git", "worktree", "list"], { cwd: w.cwd }).stdout.toString();
  expect(list).toContain("rein/changer");
  expect(list).not.toContain("rein/looker");
}, 30_000);

test.concurrent("claude-stream-json: a background worker's lines carry the task call's id, and its end is a system/task_notification line", async () => {
  await using w = await world();
  const step = (b: any) => {
    if (JSON.stringify(b.system).includes("You are a subagent")) return { reply: [text("worker says done")] };
    if (notes(b) >= 1) return { reply: [text("got it")] };
    if (!body(b).includes("task_id")) return { reply: [bg("solo", "say done", "toolu_solo")] };
    return { reply: [text("waiting")] };
  };
  w.fake.script(...Array.from({ length: 4 }, () => ({ respond: step })));
  const r = await w.run(["-p", "go", "--trust", "--output-format", "claude-stream-json", "--verbose"]);
  expect(r.code).toBe(0);
  const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  expect(lines.some((l) => l.type === "assistant" && l.parent_tool_use_id === "toolu_solo")).toBe(true);
  const note = lines.find((l) => l.type === "system" && l.subtype === "task_notification");
  expect(note).toMatchObject({ tool_use_id: "toolu_solo", status: "completed", summary: 'Agent "solo" completed' });
  expect(lines.at(-1)).toMatchObject({ type: "result", result: "got it" });
}, 30_000);

test.concurrent("--worktree NAME: the main session runs in a worktree; unchanged it is removed, changed it is kept and named", async () => {
  await using w = await world();
  const git = (...args: string[]) => expect(Bun.spawnSync(["git", ...args], { cwd: w.cwd }).exitCode).toBe(0);
  git("init", "-q");
  await Bun.write(w.path("a.txt"), "one\n");
  git("add", "-A");
  git("-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "one");
  w.fake.script({ reply: [text("nothing to do")] });
  const quiet = await w.run(["-p", "look", "--worktree", "quiet", "--output-format", "stream-json"]);
  expect(quiet.code).toBe(0);
  expect(JSON.parse(quiet.stdout.split("\n")[0]!).cwd).toContain("/worktrees/");
  expect(quiet.stderr).not.toContain("kept the worktree");
  expect(Bun.spawnSync(["git", "worktree", "list"], { cwd: w.cwd }).stdout.toString()).not.toContain("rein/quiet");

  w.fake.script({ reply: [call("write", { path: "b.txt", content: "new\n" })] }, { reply: [text("wrote it")] });
  const busy = await w.run(["-p", "write b.txt", "--worktree", "busy", "--allow", "edit"]);
  expect(busy.code).toBe(0);
  expect(busy.stderr).toMatch(/kept the worktree with its changes:\npath: \S+\/worktrees\/\S+\/busy\nbranch: rein\/busy\ndiffstat: 1 new file not yet added/);
  expect(await Bun.file(w.path("b.txt")).exists()).toBe(false);

  const bad = await w.run(["-p", "x", "--worktree", "../up"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--worktree ../up: the worktree name "../up" is not usable');
}, 30_000);

test.concurrent("a coordinator makes a team with a member, shares a task list with it, and rein teams list | show NAME read it back", async () => {
  await using w = await world();
  const member = (b: any) => !isLead(b);
  const step = (b: any) => {
    if (member(b)) {
      // a member starting an unowned task takes it
      if (!body(b).includes("Updated task #1 owner, status")) return { reply: [call("task_update", { task_id: "1", status: "in_progress" })] };
      if (!body(b).includes("Updated task #1 status")) return { reply: [call("task_update", { task_id: "1", status: "completed" })] };
      return { reply: [text("#1 is done")] };
    }
    if (!body(b).includes("Task #1 created")) return { reply: [call("task_create", { subject: "read the notes" })] };
    if (!body(b).includes("Team \\\"docs\\\" made")) return { reply: [call("team_create", { name: "docs", description: "the notes team", members: [{ name: "ana", prompt: "do task #1 of the list", subagent_type: "general" }] })] };
    return { reply: [text(notes(b) >= 1 ? "ana finished #1" : "waiting for ana")] };
  };
  w.fake.script(...Array.from({ length: 7 }, () => ({ respond: step })));
  // Claude Code's names for the tools match in its settings: a PreToolUse hook on TaskCreate|TaskUpdate sees both calls
  await Bun.write(w.path(".claude/settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "TaskCreate|TaskUpdate", hooks: [{ type: "command", command: `jq -c '[.tool_name, .tool_input]' >> ${w.path("pre.jsonl")}` }] }] } }));

  const r = await w.runStream(["-p", "split the notes work", "--agent", "coordinator", "--trust"]);

  expect(r.code).toBe(0);
  expect(r.events.at(-1)).toMatchObject({ type: "result", status: "success", text: "ana finished #1" });
  // the coordinator has the team's tools up front; Claude Code's TaskCreate ran task_create
  const offered = w.fake.requests.find((q) => isLead(q.body))!.body.tools.map((t: { name: string }) => t.name);
  expect(offered).toEqual(expect.arrayContaining(["team_create", "team_delete", "task_create", "task_update", "task_list"]));
  const pre = (await Bun.file(w.path("pre.jsonl")).text()).trim().split("\n").map((l) => JSON.parse(l));
  expect(pre).toEqual([["TaskCreate", { subject: "read the notes" }], ["TaskUpdate", { taskId: "1", status: "in_progress" }], ["TaskUpdate", { taskId: "1", status: "completed" }]]);
  const listed = await w.run(["teams", "list"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toMatch(/^docs {2}lead s_\w+ {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}1 member {2}1 task \(1 completed, 0 in progress, 0 pending\)\n$/);
  const shown = await w.run(["teams", "show", "docs"]);
  expect(shown.stdout).toMatch(/^team docs · lead s_\w+ · made .* UTC\nthe notes team\n\nmembers:\n- ana \(general, s_\w+\) · completed\n\ntasks:\n#1 \[completed\] read the notes \(ana\)\n$/);
  const json = JSON.parse((await w.run(["teams", "show", "docs", "--json"])).stdout);
  expect(json).toMatchObject({ name: "docs", members: [{ name: "ana", state: "completed" }], tasks: [{ id: "1", status: "completed", owner: "ana" }] });
  const missing = await w.run(["teams", "show", "nope"]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toBe('rein: no team named "nope" (teams: docs)\n');
}, 30_000);
