import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadAgents, type AgentSourceContext } from "../../../src/agents/sources.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let ctx: AgentSourceContext;
beforeEach(() => {
  dir = tempDir("rein-agents-");
  const root = join(dir.path, "repo");
  mkdirSync(root);
  ctx = { cwd: root, projectRoot: root, home: join(dir.path, "home"), configDir: join(dir.path, "home", ".config", "rein"), trusted: true };
});
afterEach(() => dir.remove());

const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const byName = (name: string) => loadAgents(ctx).agents.find((a) => a.name === name);

test("Claude Code agent files: name, tools in its vocabulary, disallowedTools, model alias, permissionMode, maxTurns, body as prompt", () => {
  write(
    join(ctx.projectRoot, ".claude", "agents", "team", "review.md"),
    "---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Grep, Bash(git diff *), MultiEdit\ndisallowedTools: [WebFetch]\nmodel: haiku\npermissionMode: acceptEdits\nmaxTurns: 7\ncolor: blue\n---\nYou review code.\n",
  );
  const { agents, report } = loadAgents(ctx);
  const agent = agents.find((a) => a.name === "reviewer")!;
  expect(agent).toMatchObject({
    description: "Reviews diffs",
    prompt: "You review code.",
    tools: ["read", "grep", "bash", "edit"],
    disallowedTools: ["webfetch"],
    model: "haiku", // resolved when it runs, for the provider in use
    permissionMode: "accept-edits",
    maxTurns: 7,
    project: true,
  });
  expect(report.notes).toEqual([]);
});

test("OpenCode agent files: the path is the name, permission and tools maps become rules, maxSteps is the turn limit", () => {
  write(
    join(ctx.home, ".config", "opencode", "agents", "team", "docs.md"),
    "---\ndescription: Writes docs\nmode: subagent\nhidden: true\nmaxSteps: 3\ntools:\n  bash: false\npermission:\n  edit: ask\n  webfetch:\n    'https://docs.example/*': allow\n    '*': deny\n---\nWrite docs.\n",
  );
  expect(byName("team/docs")).toMatchObject({
    mode: "subagent",
    hidden: true,
    maxTurns: 3,
    project: false,
    rules: [
      { permission: "bash", pattern: "*", action: "deny" },
      { permission: "edit", pattern: "*", action: "ask" },
      { permission: "webfetch", pattern: "*", action: "deny" },
      { permission: "webfetch", pattern: "https://docs.example/*", action: "allow" },
    ],
  });
});

test("a file without a description or with broken front matter is skipped with a warning naming it; the others load", () => {
  write(join(ctx.projectRoot, ".rein", "agents", "nodesc.md"), "---\nname: nodesc\n---\nbody\n");
  write(join(ctx.projectRoot, ".rein", "agents", "broken.md"), '---\nname: broken\ndescription: "never closed\n---\nbody\n');
  write(join(ctx.projectRoot, ".rein", "agents", "open.md"), "---\ndescription: never closed\n");
  write(join(ctx.projectRoot, ".rein", "agents", "good.md"), "---\ndescription: fine\n---\n");
  const { agents, report } = loadAgents(ctx);
  expect(report.warnings).toEqual([
    expect.stringMatching(/broken\.md skipped: the front matter is not valid YAML/),
    expect.stringMatching(/nodesc\.md skipped: it has no `description`/),
    expect.stringMatching(/open\.md skipped: the front matter is not closed/),
  ]);
  expect(agents.map((a) => a.name)).toContain("good");
  expect(agents.map((a) => a.name)).not.toContain("nodesc");
});

test("front matter is read leniently, as for skills: an unquoted colon or a lone bracket loads, with a note saying how it was read", () => {
  write(join(ctx.projectRoot, ".claude", "agents", "colon.md"), "---\nname: colon\ndescription: Use when: the diff is large\ntools: Read, Grep\n---\nYou read.\n");
  write(join(ctx.projectRoot, ".rein", "agents", "bracket.md"), "---\nname: [draft\ndescription: x\n---\nbody\n");
  const { agents, report } = loadAgents(ctx);
  expect(report.warnings).toEqual([]);
  expect(agents.find((a) => a.name === "colon")).toMatchObject({ description: "Use when: the diff is large", tools: ["read", "grep"], prompt: "You read." });
  expect(agents.find((a) => a.name === "[draft")?.description).toBe("x");
  expect(report.notes.filter((n) => n.includes("not strict YAML"))).toEqual([
    expect.stringMatching(/bracket\.md: the front matter is not strict YAML \(.+\), so it was read leniently/),
    expect.stringMatching(/colon\.md: the front matter is not strict YAML/),
  ]);
});

test("two agents with one name: the nearer wins, with a note naming both files", () => {
  write(join(ctx.home, ".claude", "agents", "a.md"), "---\nname: helper\ndescription: the user's\n---\n");
  write(join(ctx.projectRoot, ".claude", "agents", "b.md"), "---\nname: helper\ndescription: the project's\n---\n");
  const sub = join(ctx.projectRoot, "pkg");
  write(join(sub, ".rein", "agents", "helper.md"), "---\ndescription: the subfolder's\n---\n");
  ctx = { ...ctx, cwd: sub };
  const { agents, report } = loadAgents(ctx);
  expect(agents.filter((a) => a.name === "helper").map((a) => a.description)).toEqual(["the subfolder's"]);
  expect(report.notes).toEqual([
    expect.stringMatching(/agent "helper" of .*repo\/\.claude\/agents\/b\.md is not used: .*pkg\/\.rein\/agents\/helper\.md .* nearer/),
    expect.stringMatching(/agent "helper" of .*home\/\.claude\/agents\/a\.md is not used/),
  ]);
});

test("in an untrusted workspace a project agent loosens nothing: its allows and loosening mode are dropped, and it cannot replace a built-in", () => {
  write(join(ctx.projectRoot, ".opencode", "agent", "loose.md"), "---\ndescription: loose\npermission:\n  bash: allow\n  edit: deny\n---\n");
  write(join(ctx.projectRoot, ".claude", "agents", "auto.md"), "---\nname: auto-agent\ndescription: auto\npermissionMode: bypassPermissions\n---\n");
  write(join(ctx.projectRoot, ".rein", "agents", "plan.md"), "---\ndescription: a looser plan\n---\n");
  ctx = { ...ctx, trusted: false };
  const { agents, report } = loadAgents(ctx);
  const get = (name: string) => agents.find((a) => a.name === name)!;
  expect(get("loose").rules).toEqual([{ permission: "edit", pattern: "*", action: "deny" }]);
  expect(get("auto-agent").permissionMode).toBeUndefined();
  expect(get("plan").source).toBe("built-in");
  expect(report.notes.join("\n")).toContain("allow bash(*) not applied: the workspace is not trusted");
  expect(report.notes.join("\n")).toContain("the built-in plan stays");

  ctx = { ...ctx, trusted: true };
  expect(byName("loose")!.rules).toContainEqual({ permission: "bash", pattern: "*", action: "allow" });
  expect(byName("plan")!.description).toBe("a looser plan");
});

test("the built-in agents are there with no files at all", () => {
  const agents = loadAgents(ctx).agents;
  expect(agents.map((a) => [a.name, a.mode])).toEqual([
    ["build", "primary"],
    ["plan", "primary"],
    ["coordinator", "primary"],
    ["explore", "subagent"],
    ["general", "subagent"],
  ]);
});
