// app/load-agents.ts: with no agent file anywhere a front end gets the built-ins without the parser,
// the same list agents/sources.ts gives; a folder, an inline agent or a plugin's folder goes to it.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAgents } from "../../../src/app/load-agents.ts";
import { loadAgents as readAgents } from "../../../src/agents/sources.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function places() {
  const home = mkdtempSync(join(tmpdir(), "rein-agents-"));
  made.push(home);
  const root = join(home, "work");
  mkdirSync(join(root, ".git"), { recursive: true });
  return { cwd: root, projectRoot: root, home, configDir: join(home, "config"), xdgConfig: join(home, "xdg"), trusted: true };
}

test("no agent file anywhere: the built-ins, as the reader lists them, with an empty report", () => {
  const ctx = places();
  const got = loadAgents(ctx);
  expect(got).toEqual(readAgents(ctx));
  expect(got.agents.map((a) => a.name)).toEqual(["build", "plan", "coordinator", "explore", "general"]);
  expect(got.report).toEqual({ warnings: [], notes: [] });
});

test("a project's .claude/agents file, a user's folder or an inline agent is read, nearer than the built-ins", () => {
  const ctx = places();
  mkdirSync(join(ctx.projectRoot, ".claude", "agents"), { recursive: true });
  writeFileSync(join(ctx.projectRoot, ".claude", "agents", "review.md"), "---\nname: review\ndescription: Reviews\n---\nYou review.\n");
  expect(loadAgents(ctx).agents.map((a) => a.name)).toContain("review");

  const user = places();
  mkdirSync(join(user.configDir, "agents"), { recursive: true });
  writeFileSync(join(user.configDir, "agents", "build.md"), "---\ndescription: My build\n---\nBuild my way.\n");
  const build = loadAgents(user).agents.find((a) => a.name === "build");
  expect(build?.prompt).toBe("Build my way.");

  const inline = places();
  const got = loadAgents({ ...inline, inline: [{ path: "--agents", id: "quick", text: "---\nname: quick\ndescription: Quick\n---\nBe quick.\n" }] });
  expect(got.agents.map((a) => a.name)).toContain("quick");
});
