// An OpenCode project moves in: opencode.jsonc (comments and all) with its permission, model and
// agent entries, an agent file without front matter, and a command for `agent: build`, through the
// compiled binary against the fake model.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { bash, resultText, text, toolResultsOf, world } from "./harness.ts";

const CONFIG = `{
  // OpenCode's own file, as a team keeps it
  "$schema": "https://opencode.ai/config.json",
  "model": "anthropic/claude-haiku-4-5",
  "instructions": ["docs/*.md"],
  "permission": {
    "edit": "allow",
    "bash": { "*": "ask", "touch *": "allow" }, /* the last match wins */
    "doom_loop": "ask",
  },
  "agent": {
    "reviewer": { "description": "Reviews changes", "mode": "subagent", "prompt": "{file:./reviewer.txt}", "tools": { "bash": false } },
  },
  "command": {
    "greet": { "template": "Greet $ARGUMENTS warmly.", "agent": "build" },
    "review": { "template": "Review $ARGUMENTS closely.", "agent": "reviewer", "description": "Review a path" },
  },
}`;

test.concurrent("opencode.jsonc: a trusted project's permission, model and instructions apply; untrusted, its allow is left off and said", async () => {
  await using w = await world();
  await writeFile(w.path("opencode.jsonc"), CONFIG);
  await mkdir(w.path("docs"), { recursive: true });
  await writeFile(w.path("docs", "rules.md"), "TEAM RULES FROM DOCS");
  await writeFile(w.path("reviewer.txt"), "YOU REVIEW CHANGES.");
  w.fake.script({ reply: [bash("touch made", "toolu_1")] }, { reply: [text("done")] });
  const untrusted = await w.run(["-p", "make it"]);
  expect(untrusted.code).toBe(0);
  expect(existsSync(w.path("made"))).toBe(false);
  expect(untrusted.stderr).toContain(`ignored permission allow (2 rules) from ${w.path("opencode.jsonc")}`);
  expect(w.fake.requests[0]!.body.model).toBe("claude-sonnet-5-5");

  w.fake.script({ reply: [bash("touch made", "toolu_2")] }, { reply: [text("done")] });
  const trusted = await w.run(["-p", "make it now", "--trust"]);
  expect(trusted.code).toBe(0);
  expect(existsSync(w.path("made"))).toBe(true);
  // anthropic/claude-haiku-4-5 is Anthropic's model: the API gets its own id.
  expect(w.fake.requests[2]!.body.model).toBe("claude-haiku-4-5");
  expect(JSON.stringify(w.fake.requests[2]!.body.system)).toContain("TEAM RULES FROM DOCS");

  const doctor = await w.run(["doctor", "--trust"]);
  expect(doctor.stdout).toContain(`${w.path("opencode.jsonc")} (project): applied permission/tools: 3 rein rules; model: anthropic/claude-haiku-4-5; agent: reviewer; command: greet, review; instructions: 1 file (docs/*.md)`);
  expect(doctor.stdout).toContain(`${w.path("opencode.jsonc")}: not applied: permission.doom_loop: rein has no such permission`);
});

test.concurrent("an opencode.json agent runs through the task tool with its prompt file and without its denied tools", async () => {
  await using w = await world();
  await writeFile(w.path("opencode.jsonc"), CONFIG);
  await writeFile(w.path("reviewer.txt"), "YOU REVIEW CHANGES.");
  const isChild = (body: { system?: unknown }) => JSON.stringify(body.system).includes("YOU REVIEW CHANGES.");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_t", input: { description: "review", prompt: "review it", subagent_type: "reviewer" } }] },
    { respond: (body) => (isChild(body) ? { reply: [text("looks good")] } : { error: 500 }) },
    { reply: [text("reviewed")] },
  );
  const r = await w.run(["-p", "review", "--trust"]);
  expect(r.code).toBe(0);
  const child = w.fake.requests[1]!.body;
  expect(isChild(child)).toBe(true);
  expect(child.tools.map((t: { name: string }) => t.name)).not.toContain("bash");
  expect(resultText(toolResultsOf(w.fake.requests[2])[0])).toContain("looks good");
});

test.concurrent("an OpenCode agent file without front matter loads; a command with agent: build runs in the session", async () => {
  await using w = await world();
  await mkdir(w.path(".opencode", "agent"), { recursive: true });
  await writeFile(w.path(".opencode", "agent", "helper.md"), "You help with small chores.\n");
  await mkdir(w.path(".opencode", "command"), { recursive: true });
  await writeFile(w.path(".opencode", "command", "hello.md"), "---\ndescription: Say hello\nagent: build\n---\nSay hello to $ARGUMENTS.\n");
  w.fake.script({ reply: [text("Hello, Ada.")] });
  const r = await w.run(["-p", "/hello Ada", "--trust"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("Hello, Ada.");
  const listed = await w.run(["-p", "/nothing-here", "--trust"]);
  expect(listed.code).toBe(2);
  const agents = await w.run(["-p", "hi", "--agent", "helper", "--trust"]);
  // helper is an agent of mode all (OpenCode's default): it can be run as the session's agent.
  expect(agents.stderr).not.toContain("no agent");
});

test.concurrent("opencode.json commands run: one in the session (agent: build), one handed to its agent through the task tool", async () => {
  await using w = await world();
  await writeFile(w.path("opencode.jsonc"), CONFIG);
  await writeFile(w.path("reviewer.txt"), "YOU REVIEW CHANGES.");
  w.fake.script({ reply: [text("Hello there, Ada!")] });
  const greet = await w.run(["-p", "/greet Ada", "--trust"]);
  expect(greet.code).toBe(0);
  expect(JSON.stringify(w.fake.requests[0]!.body.messages)).toContain("Greet Ada warmly.");
  expect(greet.stdout).toContain("Hello there, Ada!");

  const isChild = (body: { system?: unknown }) => JSON.stringify(body.system).includes("YOU REVIEW CHANGES.");
  w.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_r", input: { description: "review", prompt: "Review src/ closely.", subagent_type: "reviewer" } }] },
    { respond: (body) => (isChild(body) ? { reply: [text("fine")] } : { error: 500 }) },
    { reply: [text("reviewed: fine")] },
  );
  const review = await w.run(["-p", "/review src/", "--trust"]);
  expect(review.code).toBe(0);
  expect(JSON.stringify(w.fake.requests[1]!.body.messages)).toContain("reviewer");
  expect(JSON.stringify(w.fake.requests[1]!.body.messages)).toContain("Review src/ closely.");
  expect(review.stdout).toContain("reviewed: fine");
});
