// Agents through the compiled binary: an agent file chosen with --agent, and a task call whose
// child's events reach stream-json with parent_tool_use_id and whose usage rolls up.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { text, toolResultsOf, resultText, world } from "./harness.ts";

test.concurrent("--agent runs an agent file's prompt; a task call runs a child whose events are forwarded and whose usage rolls up", async () => {
  await using w = await world();
  await mkdir(w.path(".rein", "agents"), { recursive: true });
  await writeFile(w.path(".rein", "agents", "lead.md"), "---\ndescription: leads the work\nmode: primary\n---\nYOU LEAD THE WORK.\n");
  const isChild = (body: { system?: unknown }) => JSON.stringify(body.system).includes("explore agent");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_e2e_task", input: { description: "find", prompt: "find main", subagent_type: "explore" } }], usage: { input_tokens: 50, output_tokens: 10 } },
    { respond: (body) => (isChild(body) ? { reply: [text("main is src/main.ts")], usage: { input_tokens: 7, output_tokens: 3 } } : { error: 500 }) },
    { reply: [text("Found it.")], usage: { input_tokens: 60, output_tokens: 4 } },
  );

  const r = await w.runStream(["-p", "where is main?", "--agent", "lead", "--trust"]);

  expect(r.code).toBe(0);
  expect(JSON.stringify(w.fake.requests[0]!.body.system)).toContain("YOU LEAD THE WORK.");
  // task is offered up front; the team's other tools wait behind load_tools
  const offered = w.fake.requests[0]!.body.tools;
  expect(offered.find((t: { name: string }) => t.name === "task").description).toContain("run_in_background");
  expect(offered.find((t: { name: string }) => t.name === "load_tools").description).toContain("send_message (");
  const session = r.events[0]!;
  expect(session).toMatchObject({ type: "session", agent: "lead" });
  const forwarded = r.events.filter((e) => e.parent_tool_use_id === "toolu_e2e_task");
  expect(forwarded[0]).toMatchObject({ type: "session", agent: "explore" });
  expect(forwarded.at(-1)).toMatchObject({ type: "result", status: "success", text: "main is src/main.ts" });
  expect(resultText(toolResultsOf(w.fake.requests[2])[0])).toContain("<task_result>\nmain is src/main.ts\n</task_result>");
  expect(r.events.at(-1)).toMatchObject({ type: "result", status: "success", text: "Found it.", usage: { input_tokens: 117, output_tokens: 17 } });

  // the tree: the parent lists its child, the child names its parent; neither is lost from the store
  const child = forwarded[0]!.session_id;
  const shown = await w.run(["sessions", "show", session.session_id]);
  expect(shown.stdout).toContain(`Subagents:\n- explore ${child}: find main`);
  expect((await w.run(["sessions", "show", child])).stdout).toContain(`subagent explore of ${session.session_id} (task call toolu_e2e_task)`);
  expect((await w.run(["sessions", "list"])).stdout).not.toContain(child);
});

test.concurrent("an unknown --agent is a usage error naming the agents there are", async () => {
  await using w = await world();
  const r = await w.run(["-p", "hi", "--agent", "nosuch"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('no agent "nosuch" to run as: choose one of build, plan');
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("without --agent the session event names the build agent", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("hi")] });
  const r = await w.runStream(["-p", "hi"]);
  expect(r.code).toBe(0);
  expect(r.events[0]).toMatchObject({ type: "session", agent: "build" });
});
