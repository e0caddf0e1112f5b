// Claude Code's agent fields that rein applies: `skills` loaded into the agent's prompt when it runs
// as a subagent, `initialPrompt` before the first prompt when it runs as the main agent, `memory`
// (its MEMORY.md, its tools and its folder) and `hooks` (only in its own task) when it runs as a subagent.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { text, world } from "./harness.ts";

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
  const run = await w.run(["-p", "check the style", "--trust"]);
  expect(run.code).toBe(0);
  const child = JSON.stringify(w.fake.requests[1]!.body.system);
  expect(child).toContain("You check style.");
  expect(child).toContain('<skill name=\\"house-style\\"');
  expect(child).toContain("ALWAYS USE TABS.");
  expect(JSON.stringify(w.fake.requests[0]!.body.system)).not.toContain("ALWAYS USE TABS.");

  w.fake.script({ reply: [text("ok")] });
  const main = await w.run(["-p", "go", "--agent", "styler", "--trust"]);
  expect(main.code).toBe(0);
  const first = JSON.stringify(w.fake.requests[3]!.body.messages[0]);
  expect(first).toContain("Read the style guide first.\\n\\ngo");
}, 30_000);

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
  const run = await w.run(["-p", "review", "--trust"]);
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
  const main = await w.run(["-p", "go", "--agent", "reviewer", "--trust"]);
  expect(main.code).toBe(0);
  const lead = w.fake.requests[4]!.body;
  expect(JSON.stringify(lead.system)).toContain("this repo uses tabs");
  expect(lead.tools.map((t: { name: string }) => t.name).sort()).toEqual(["bash", "edit", "read", "write"]);
}, 30_000);

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
  const run = await w.run(["-p", "check", "--trust", "--allow", "bash"]);
  expect(run.code).toBe(0);
  // One PreToolUse (the child's bash call, not the lead's) and one stop: the child's, as SubagentStop.
  expect((await Bun.file(log).text()).trim().split("\n")).toEqual(["pre", "stop"]);
}, 30_000);
