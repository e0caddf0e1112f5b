// Commands and skills through the compiled binary in print mode: `/cmd args` expanded before the
// model sees it, a skill loaded by the model's skill tool, an unknown command refused with exit 2.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { lastUserText, text, toolResultsOf, resultText, world } from "./harness.ts";

async function put(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}

test.concurrent("print mode runs /cmd args as the command's prompt and the model loads a skill with the skill tool", async () => {
  await using w = await world();
  await put(join(w.cwd, ".claude/commands/review.md"), "---\ndescription: Review a path\n---\nReview $1 and report on $ARGUMENTS.\n");
  await put(join(w.home, ".claude/skills/house-style/SKILL.md"), "---\nname: house-style\ndescription: How this team writes code. Use when: editing code\n---\nUse tabs for $ARGUMENTS.\n");
  w.fake.script({ reply: [{ type: "tool_use", id: "toolu_01Skill", name: "skill", input: { name: "house-style", args: "go" } }] }, { reply: [text("Reviewed.")] });

  const r = await w.run(["-p", "/review src/ carefully"]);

  expect(r.code).toBe(0);
  expect(r.stdout).toBe("Reviewed.\n");
  expect(lastUserText(w.fake.requests[0])).toBe("Review src/ and report on src/ carefully.\n");
  expect(JSON.stringify(w.fake.requests[0]!.body.system)).toContain("- house-style: How this team writes code. Use when: editing code");
  const [result] = toolResultsOf(w.fake.requests[1]);
  expect(result?.is_error).toBeFalsy();
  expect(resultText(result)).toContain("Use tabs for go.");
});

test.concurrent("an unknown /name in print mode is a usage error listing the known commands; nothing is sent", async () => {
  await using w = await world();
  await put(join(w.home, ".claude/skills/house-style/SKILL.md"), "---\nname: house-style\ndescription: How this team writes code\n---\nbody\n");

  const r = await w.run(["-p", "/revew src/"]);

  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("unknown command /revew: the commands here are /house-style");
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("rein skills list names each skill and command with its file, and the ones that failed to load", async () => {
  await using w = await world();
  await put(join(w.home, ".claude/skills/house-style/SKILL.md"), "---\nname: house-style\ndescription: How this team writes code\ndisable-model-invocation: true\n---\nbody\n");
  await put(join(w.home, ".agents/skills/broken/SKILL.md"), "no front matter here\n");
  await put(join(w.cwd, ".claude/commands/review.md"), "Review $ARGUMENTS\n");
  await put(join(w.cwd, ".claude/skills/repo-skill/SKILL.md"), "---\nname: repo-skill\ndescription: From the repository\n---\nbody\n");

  const r = await w.run(["skills", "list"]);

  expect(r.code).toBe(0);
  const lines = r.stdout.split("\n");
  expect(lines).toContain(`  house-style  user     ${join(w.home, ".claude/skills/house-style/SKILL.md")}  (not for the model)`);
  expect(lines).toContain(`  /review  project  ${join(w.cwd, ".claude/commands/review.md")}`);
  expect(r.stdout).toContain(`  ${join(w.home, ".agents/skills/broken/SKILL.md")}: no front matter`);
  expect(r.stdout).toContain(`project skills in ${join(w.cwd, ".claude/skills")} were not loaded: this workspace is not trusted`);

  const trusted = await w.run(["skills", "list", "--json", "--trust"]);
  const parsed = JSON.parse(trusted.stdout);
  expect(parsed.skills.map((s: { name: string; scope: string }) => `${s.name} ${s.scope}`)).toEqual(["house-style user", "repo-skill project"]);
  expect(parsed.commands.map((c: { name: string; kind: string }) => `${c.name} ${c.kind}`)).toEqual(["/house-style skill", "/repo-skill skill", "/review command"]);
});

test.concurrent("a plugin in the plugins folder: rein plugin list shows it, and print mode runs its namespaced command", async () => {
  await using w = await world();
  const root = join(w.configDir, "plugins", "tidy");
  await put(join(root, ".claude-plugin/plugin.json"), JSON.stringify({ name: "tidy", version: "0.3.0" }));
  await put(join(root, "commands/fmt.md"), "---\ndescription: Format files\n---\nFormat $ARGUMENTS with the house rules.\n");
  await put(join(root, "skills/lint/SKILL.md"), "---\nname: lint\ndescription: Lint the code\n---\nRun the linter.\n");
  await put(join(root, ".mcp.json"), "{}");

  const list = await w.run(["plugin", "list"]);
  expect(list.code).toBe(0);
  expect(list.stdout).toBe(
    `tidy 0.3.0  ${root}\n  commands: /tidy:fmt\n  skills: tidy:lint\n`,
  );

  w.fake.script({ reply: [text("Formatted.")] });
  const r = await w.run(["-p", "/tidy:fmt src/a.ts"]);
  expect(r.code).toBe(0);
  expect(lastUserText(w.fake.requests[0])).toBe("Format src/a.ts with the house rules.\n");
  expect(JSON.stringify(w.fake.requests[0]!.body.system)).toContain("- tidy:lint: Lint the code");
});

test.concurrent("a command whose front matter names a model that cannot run is a usage error in print mode; nothing is sent", async () => {
  await using w = await world();
  await put(join(w.cwd, ".rein/commands/cheap.md"), "---\nmodel: nosuch/tiny\n---\nSay hi\n");

  const r = await w.run(["-p", "/cheap"]);

  expect(r.code).toBe(2);
  expect(r.stderr).toContain("/cheap asks for the model nosuch/tiny (its front matter), which cannot run:");
  expect(w.fake.requests).toHaveLength(0);
});
