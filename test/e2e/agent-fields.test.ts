// Claude Code's agent fields that rein applies: `skills` loaded into the agent's prompt when it runs
// as a subagent, `initialPrompt` before the first prompt when it runs as the main agent.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
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
