// Claude Code's agent fields that rein applies: `skills` loaded into the agent's prompt when it runs
// as a subagent, `initialPrompt` before the first prompt when it runs as the main agent, `memory`
// (its MEMORY.md, its tools and its folder) and `hooks` (only in its own task) when it runs as a subagent.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startFakeOpenAI } from "../fake/openai-server.ts";
import { text, world } from "./harness.ts";

// Several model turns, subagents and MCP servers per run: on a loaded machine that takes more than the harness's 20 s.
const SLOW = { timeoutMs: 80_000 };

test.concurrent("skills are preloaded into a subagent's prompt; initialPrompt opens the main agent's first turn", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  await mkdir(w.path(".claude", "skills", "house-style"), { recursive: true });
  await writeFile(w.path(".claude", "skills", "house-style", "SKILL.md"), "---\nname: house-style\ndescription: The house style\n---\nALWAYS USE TABS.\n");
  await writeFile(w.path(".claude", "agents", "styler.md"), "---\nname: styler\ndescription: Checks style\nskills: [house-style]\ninitialPrompt: Read the style guide first.\n---\nYou check style.\n");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_style", input: { description: "style", prompt: "check a.ts", subagent_type: "styler" } }] },
    { reply: [text("tabs everywhere")] },
    { reply: [text("done")] },
  );
  const run = await w.run(["-p", "check the style", "--trust"], SLOW);
  expect(run.code).toBe(0);
  const child = w.fake.requests[1]!.body;
  expect(JSON.stringify(child.system)).toContain("You check style.");
  // As Claude Code preloads them: after the task's prompt in the child's first message, not in its system prompt.
  expect(JSON.stringify(child.system)).not.toContain("ALWAYS USE TABS.");
  const opening = child.messages[0].content.map((b: { text?: string }) => b.text ?? "");
  expect(opening[0]).toBe("check a.ts");
  expect(opening[1]).toContain('<skill name="house-style"');
  expect(opening[1]).toContain("ALWAYS USE TABS.");
  expect(JSON.stringify(w.fake.requests[0]!.body)).not.toContain("ALWAYS USE TABS.");

  w.fake.script({ reply: [text("ok")] });
  const main = await w.run(["-p", "go", "--agent", "styler", "--trust"], SLOW);
  expect(main.code).toBe(0);
  const first = JSON.stringify(w.fake.requests[3]!.body.messages[0]);
  // Claude Code's form: the initialPrompt, a blank line, then the prompt (test/e2e/agent-fields-recorded.test.ts)
  expect(first).toContain("Read the style guide first.\\n\\ngo");

  // {{intent}} in it stands for the prompt given; a run that continues the session gets it again, as in Claude Code.
  await writeFile(w.path(".claude", "agents", "styler.md"), "---\nname: styler\ndescription: Checks style\ninitialPrompt: 'Check {{intent}} against the guide.'\n---\nYou check style.\n");
  w.fake.script({ reply: [text("ok")] });
  expect((await w.run(["-p", "a.ts", "--agent", "styler", "--trust", "-c"], SLOW)).code).toBe(0);
  const again = w.fake.requests[4]!.body.messages;
  expect(JSON.stringify(again.at(-1))).toContain("Check a.ts against the guide.");
}, 120_000);

test.concurrent("memory: the agent's MEMORY.md is in its prompt, it gets read, write and edit, and writing in its memory folder asks nothing", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  await writeFile(w.path(".claude", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews code\ntools: Bash\nmemory: user\n---\nYou review.\n");
  // user scope: ~/.claude/agent-memory/reviewer/, outside the project, where writing would ask
  const folder = join(w.home, ".claude", "agent-memory", "reviewer");
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, "MEMORY.md"), "- this repo uses tabs\n");
  const note = join(folder, "a-ts.md");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_review", input: { description: "review", prompt: "review a.ts", subagent_type: "reviewer" } }] },
    { reply: [{ type: "tool_use", name: "write", id: "toolu_note", input: { path: note, content: "a.ts is fine\n" } }] },
    { reply: [text("reviewed")] },
    { reply: [text("done")] },
  );
  const run = await w.run(["-p", "review", "--trust"], SLOW);
  expect(run.code).toBe(0);
  const child = w.fake.requests[1]!.body;
  expect(JSON.stringify(child.system)).toContain("this repo uses tabs");
  expect(JSON.stringify(child.system)).toContain(folder);
  expect(child.tools.map((t: { name: string }) => t.name).sort()).toEqual(["bash", "edit", "read", "write"]);
  expect(await Bun.file(note).text()).toContain("a.ts is fine");
  // The lead keeps no memory of its own: its prompt does not carry the reviewer's.
  expect(JSON.stringify(w.fake.requests[0]!.body.system)).not.toContain("this repo uses tabs");

  // Run as the main agent (--agent), it has its memory and its tools too.
  w.fake.script({ reply: [text("ok")] });
  const main = await w.run(["-p", "go", "--agent", "reviewer", "--trust"], SLOW);
  expect(main.code).toBe(0);
  const lead = w.fake.requests[4]!.body;
  expect(JSON.stringify(lead.system)).toContain("this repo uses tabs");
  expect(lead.tools.map((t: { name: string }) => t.name).sort()).toEqual(["bash", "edit", "read", "write"]);
}, 120_000);

test.concurrent("hooks: an agent's own hooks run only in its task, its Stop as SubagentStop", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  const log = w.path("hooks.log");
  const hooks = `hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: "echo pre >> ${log}"\n  Stop:\n    - hooks:\n        - type: command\n          command: "echo stop >> ${log}"\n`;
  await writeFile(w.path(".claude", "agents", "checker.md"), `---\nname: checker\ndescription: Checks\ntools: Bash\n${hooks}---\nYou check.\n`);
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_check", input: { description: "check", prompt: "check", subagent_type: "checker" } }] },
    { reply: [{ type: "tool_use", name: "bash", id: "toolu_child_ls", input: { command: "true" } }] },
    { reply: [text("checked")] },
    { reply: [{ type: "tool_use", name: "bash", id: "toolu_lead_ls", input: { command: "true" } }] },
    { reply: [text("done")] },
  );
  const run = await w.run(["-p", "check", "--trust", "--allow", "bash"], SLOW);
  expect(run.code).toBe(0);
  // One PreToolUse (the child's bash call, not the lead's) and one stop: the child's, as SubagentStop.
  expect((await Bun.file(log).text()).trim().split("\n")).toEqual(["pre", "stop"]);
}, 120_000);

const REFUSED = { type: "error", error: { type: "invalid_request_error", message: "output_config.effort: Extra inputs are not permitted" } };
const effortOf = (request: { body: { output_config?: { effort?: string } } } | undefined) => request?.body.output_config?.effort;
const betaOf = (request: { headers: Record<string, string> } | undefined) => request?.headers["anthropic-beta"];

test.concurrent("effort: a subagent's, as output_config.effort under the effort beta, capped at the levels the model takes, none to a model that takes none; a main agent's is not sent", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  await writeFile(w.path(".claude", "agents", "deep.md"), "---\nname: deep\ndescription: Thinks hard\nmodel: claude-opus-4-5\neffort: max\n---\nYou think.\n");
  await writeFile(w.path(".claude", "agents", "quick.md"), "---\nname: quick\ndescription: Answers fast\nmodel: claude-haiku-4-5\neffort: high\n---\nYou answer.\n");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_deep", input: { description: "think", prompt: "think hard", subagent_type: "deep" } }] },
    { reply: [text("thought")] },
    { reply: [{ type: "tool_use", name: "task", id: "toolu_quick", input: { description: "answer", prompt: "answer fast", subagent_type: "quick" } }] },
    { reply: [text("answered")] },
    { reply: [text("done")] },
  );
  const run = await w.run(["-p", "go", "--trust"], SLOW);
  expect(run.code).toBe(0);
  // claude-opus-4-5 tops out at high; claude-haiku-4-5 takes none (as Claude Code's model table says); the lead asks none.
  expect(w.fake.requests.map(effortOf)).toEqual([undefined, "high", undefined, undefined, undefined]);
  expect(betaOf(w.fake.requests[1])).toContain("effort-2025-11-24");
  expect(w.fake.requests[3]!.body).not.toHaveProperty("output_config");
  for (const i of [0, 2, 3, 4]) expect(betaOf(w.fake.requests[i]) ?? "").not.toContain("effort-2025-11-24");

  // As the main agent its effort is not sent (Claude Code 2.1.332 sends none: test/e2e/agent-fields-recorded.test.ts).
  w.fake.script({ reply: [text("thought")] });
  expect((await w.run(["-p", "think", "--agent", "deep", "--trust"], SLOW)).code).toBe(0);
  expect(effortOf(w.fake.requests[5])).toBeUndefined();
}, 120_000);

test.concurrent("effort: a subagent's own effort; an API that refuses it gets the request again without it, and no later turn sends it", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  await writeFile(w.path(".claude", "agents", "light.md"), "---\nname: light\ndescription: Light work\neffort: low\n---\nYou work lightly.\n");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_light", input: { description: "light", prompt: "do it", subagent_type: "light" } }] },
    { error: 400, body: REFUSED },
    { reply: [{ type: "tool_use", name: "bash", id: "toolu_true", input: { command: "true" } }] },
    { reply: [text("did it")] },
    { reply: [text("done")] },
  );
  const run = await w.run(["-p", "go", "--trust", "--allow", "bash"], SLOW);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("done\n");
  // lead (none), the child's refused request (low), its retry and its next turn (none), the lead (none)
  expect(w.fake.requests.map(effortOf)).toEqual([undefined, "low", undefined, undefined, undefined]);
  expect(run.stderr).not.toContain("Extra inputs");
}, 120_000);

test.concurrent("effort on the OpenAI path: reasoning_effort for a reasoning model (max capped at its highest), none for one without", async () => {
  await using w = await world();
  const openai = await startFakeOpenAI();
  try {
    await mkdir(w.path(".claude", "agents"), { recursive: true });
    await writeFile(w.path(".claude", "agents", "deep.md"), "---\nname: deep\ndescription: Thinks hard\neffort: max\n---\nYou think.\n");
    const env = { ...SLOW, env: { OPENAI_API_KEY: "sk-openai-test", OPENAI_BASE_URL: openai.url } };
    const turns = () => openai.script({ reply: [{ type: "tool_use", name: "task", id: "call_deep", input: { description: "think", prompt: "think", subagent_type: "deep" } }] }, { reply: [{ type: "text", text: "deep" }] }, { reply: [{ type: "text", text: "done" }] });
    turns();
    expect((await w.run(["-p", "go", "--trust", "-m", "openai/gpt-5"], env)).code).toBe(0);
    turns();
    expect((await w.run(["-p", "go", "--trust", "-m", "openai/gpt-4.1"], env)).code).toBe(0);
    // the subagent's (its model is the lead's); the lead asks none
    expect(openai.requests.map((r) => r.body.reasoning_effort)).toEqual([undefined, "high", undefined, undefined, undefined, undefined]);
  } finally {
    await openai.close();
  }
}, 120_000);

const PROBE = join(import.meta.dir, "..", "fixtures", "agents", "probe-server.ts");
const probeServer = (log: string) => `mcpServers:\n  - probe:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(PROBE)}]\n      env:\n        PROBE_LOG: ${JSON.stringify(log)}\n`;
const toolNames = (request: { body: { tools: { name: string }[] } } | undefined) => request!.body.tools.map((t) => t.name);
const MCP_WAIT = { ...SLOW, env: { REIN_MCP_WAIT_MS: "25000" } };

test.concurrent("inline mcpServers: started for the subagent's run only (its tools past its tool list), closed when its task ends", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  const log = w.path("probe.log");
  await writeFile(w.path(".claude", "agents", "prober.md"), `---\nname: prober\ndescription: Probes\ntools: Read\n${probeServer(log)}---\nYou probe.\n`);
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_probe", input: { description: "probe", prompt: "probe it", subagent_type: "prober" } }] },
    { reply: [{ type: "tool_use", name: "mcp__probe__probe", id: "toolu_p", input: {} }] },
    { reply: [text("probed")] },
    // the lead, after the task: the server's log as it stands then
    { reply: [{ type: "tool_use", name: "bash", id: "toolu_log", input: { command: `cat ${log}` } }] },
    { reply: [text("done")] },
  );
  const run = await w.run(["-p", "go", "--trust", "--allow", "bash", "--allow", "mcp__probe"], MCP_WAIT);
  expect(run.code).toBe(0);
  expect(toolNames(w.fake.requests[0])).not.toContain("mcp__probe__probe");
  expect(toolNames(w.fake.requests[1]).sort()).toEqual(["mcp__probe__probe", "read"]);
  const answer = JSON.stringify(w.fake.requests[2]!.body.messages.at(-1));
  const pid = /probe pid (\d+)/.exec(answer)?.[1];
  expect(pid).toBeDefined();
  // By the time the task's result reached the lead, the server had been closed.
  expect(JSON.stringify(w.fake.requests[4]!.body.messages.at(-1))).toContain(`started ${pid}\\nclosed ${pid}`);
  expect(run.stderr).not.toContain("none of rein's permissions");
}, 120_000);

test.concurrent("as the main agent (--agent): its inline MCP servers start with the session; its hooks run, Stop as Stop, not in the subagents it starts", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  const log = w.path("hooks.log");
  const hooks = `hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: "echo pre >> ${log}"\n  Stop:\n    - hooks:\n        - type: command\n          command: "echo stop >> ${log}"\n`;
  await writeFile(w.path(".claude", "agents", "lead.md"), `---\nname: lead\ndescription: Leads\n${hooks}${probeServer(w.path("probe.log"))}---\nYou lead.\n`);
  w.fake.script(
    { reply: [{ type: "tool_use", name: "bash", id: "toolu_lead", input: { command: "true" } }] },
    { reply: [{ type: "tool_use", name: "task", id: "toolu_gen", input: { description: "sub", prompt: "run true", subagent_type: "general" } }] },
    { reply: [{ type: "tool_use", name: "bash", id: "toolu_child", input: { command: "true" } }] },
    { reply: [text("ran")] },
    { reply: [text("done")] },
  );
  const run = await w.run(["-p", "go", "--agent", "lead", "--trust", "--allow", "bash"], MCP_WAIT);
  expect(run.code).toBe(0);
  expect(toolNames(w.fake.requests[0])).toContain("mcp__probe__probe");
  // The lead's bash call and its Stop; the general subagent's bash call runs no hook of the lead agent's.
  expect((await Bun.file(log).text()).trim().split("\n")).toEqual(["pre", "stop"]);
}, 120_000);

test.concurrent("mcpServers naming a configured server: the subagent gets its tools even where the search tool stands in for them in the lead", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ mcpServers: { probe: { command: process.execPath, args: [PROBE] } } }));
  await writeFile(w.path(".claude", "agents", "prober.md"), "---\nname: prober\ndescription: Probes\ntools: Read\nmcpServers: [probe]\n---\nYou probe.\n");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_probe", input: { description: "probe", prompt: "probe it", subagent_type: "prober" } }] },
    { reply: [text("probed")] },
    { reply: [text("done")] },
  );
  // A budget of 1 character: the lead is offered mcp_tool_search in the server's place.
  const run = await w.run(["-p", "go", "--trust"], { ...MCP_WAIT, env: { ...MCP_WAIT.env, REIN_MCP_TOOL_BUDGET: "1" } });
  expect(run.code).toBe(0);
  expect(toolNames(w.fake.requests[0])).toContain("mcp_tool_search");
  expect(toolNames(w.fake.requests[0])).not.toContain("mcp__probe__probe");
  expect(toolNames(w.fake.requests[1]).sort()).toEqual(["mcp__probe__probe", "read"]);
}, 120_000);

test.concurrent("omitClaudeMd: the subagent's prompt leaves out the project's CLAUDE.md and AGENTS.md; the lead's keeps them", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  await writeFile(w.path("AGENTS.md"), "HOUSE RULES: tabs.\n");
  await writeFile(w.path("CLAUDE.md"), "CLAUDE RULES: tests first.\n");
  await writeFile(w.path(".claude", "agents", "fresh.md"), "---\nname: fresh\ndescription: Starts fresh\nomitClaudeMd: true\n---\nYou start fresh.\n");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_fresh", input: { description: "fresh", prompt: "look", subagent_type: "fresh" } }] },
    { reply: [text("looked")] },
    { reply: [text("done")] },
  );
  const run = await w.run(["-p", "go", "--trust"], SLOW);
  expect(run.code).toBe(0);
  const [lead, child] = w.fake.requests.map((r) => JSON.stringify(r.body.system));
  expect(lead).toContain("HOUSE RULES");
  expect(lead).toContain("CLAUDE RULES");
  expect(child).toContain("You start fresh.");
  expect(child).not.toContain("HOUSE RULES");
  expect(child).not.toContain("CLAUDE RULES");
}, 120_000);

test.concurrent("effort in Claude Code hook payloads: a subagent's own level; medium without one, and for a main agent, whose effort is not sent", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  const log = w.path("payloads.log");
  const hook = `hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: "cat >> ${log}; echo >> ${log}"\n`;
  await writeFile(w.path(".claude", "agents", "deep.md"), `---\nname: deep\ndescription: Thinks hard\neffort: high\n${hook}---\nYou think.\n`);
  await writeFile(w.path(".claude", "agents", "light.md"), `---\nname: light\ndescription: Light work\neffort: low\n${hook}---\nYou work lightly.\n`);
  await writeFile(w.path(".claude", "agents", "plain.md"), `---\nname: plain\ndescription: Plain work\n${hook}---\nYou work.\n`);
  const task = (id: string, type: string) => ({ reply: [{ type: "tool_use" as const, name: "task", id, input: { description: type, prompt: "run true", subagent_type: type } }] });
  const bashTrue = (id: string) => ({ reply: [{ type: "tool_use" as const, name: "bash", id, input: { command: "true" } }] });
  w.fake.script(bashTrue("toolu_lead"), task("toolu_l", "light"), bashTrue("toolu_light"), { reply: [text("ok")] }, task("toolu_p", "plain"), bashTrue("toolu_plain"), { reply: [text("ok")] }, { reply: [text("done")] });
  const run = await w.run(["-p", "go", "--agent", "deep", "--trust", "--allow", "bash"], SLOW);
  expect(run.code).toBe(0);
  const payloads = (await Bun.file(log).text()).trim().split("\n").map((line) => JSON.parse(line) as { effort?: { level: string }; agent_type?: string });
  expect(payloads.map((p) => [p.agent_type ?? "main", p.effort?.level])).toEqual([["main", "medium"], ["light", "low"], ["plain", "medium"]]);
}, 120_000);

test.concurrent("permissionMode dontAsk: what the agent's calls would ask is refused by the agent's own rule, not put to anyone", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  await writeFile(w.path(".claude", "agents", "careful.md"), "---\nname: careful\ndescription: Asks no one\npermissionMode: dontAsk\n---\nYou are careful.\n");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_c", input: { description: "c", prompt: "make a file", subagent_type: "careful" } }] },
    { reply: [{ type: "tool_use", name: "bash", id: "toolu_child", input: { command: "touch by-child" } }] },
    { reply: [text("could not")] },
    { reply: [text("done")] },
  );
  const run = await w.run(["-p", "go", "--trust"], SLOW);
  expect(run.code).toBe(0);
  expect(JSON.stringify(w.fake.requests[2]!.body.messages.at(-1))).toContain("the careful agent asks no one (permissionMode dontAsk)");
  expect(await Bun.file(w.path("by-child")).exists()).toBe(false);
}, 120_000);

test.concurrent("an inline MCP server that cannot be used: one line naming the agent file and why; the task still runs", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  await writeFile(w.path(".claude", "agents", "odd.md"), "---\nname: odd\ndescription: Odd\nmcpServers:\n  - socket: {type: ws, url: 'ws://127.0.0.1:1'}\n---\nYou are odd.\n");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_odd", input: { description: "odd", prompt: "go", subagent_type: "odd" } }] },
    { reply: [text("went")] },
    { reply: [text("done")] },
  );
  const run = await w.run(["-p", "go", "--trust"], SLOW);
  expect(run).toMatchObject({ code: 0, stdout: "done\n" });
  const lines = run.stderr.split("\n").filter((line) => line.includes('MCP server "socket"'));
  expect(lines).toEqual([`rein: agent file ${w.path(".claude", "agents", "odd.md")}: MCP server "socket" is not started: unknown transport "ws": rein speaks stdio, http, streamable-http, sse`]);
}, 120_000);

test.concurrent("skills of a background worker's agent come after its prompt in its first message, once", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  await mkdir(w.path(".claude", "skills", "house-style"), { recursive: true });
  await writeFile(w.path(".claude", "skills", "house-style", "SKILL.md"), "---\nname: house-style\ndescription: The house style\n---\nALWAYS USE TABS.\n");
  await writeFile(w.path(".claude", "agents", "styler.md"), "---\nname: styler\ndescription: Checks style\nskills: [house-style]\nbackground: true\n---\nYou check style.\n");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_bg", input: { description: "style", prompt: "check b.ts", subagent_type: "styler" } }] },
    { reply: [text("ok")] },
    { reply: [text("ok")] },
    { reply: [text("ok")] },
    { reply: [text("ok")] },
  );
  const run = await w.run(["-p", "check", "--trust"], SLOW);
  expect(run.code).toBe(0);
  const worker = w.fake.requests.filter((r) => JSON.stringify(r.body.system).includes("You check style."));
  expect(worker.length).toBeGreaterThan(0);
  const opening = worker[0]!.body.messages[0].content.map((b: { text?: string }) => b.text ?? "");
  expect(opening[0]).toBe("check b.ts");
  expect(opening[1]).toContain("ALWAYS USE TABS.");
  expect(JSON.stringify(worker[0]!.body.system)).not.toContain("ALWAYS USE TABS.");
}, 120_000);
