import { expect, test } from "bun:test";
import { builtinAgents } from "../../../src/agents/builtin.ts";
import { offeredTools, tightening } from "../../../src/agents/rules.ts";
import type { AgentDefinition } from "../../../src/agents/types.ts";
import { evaluate, type PermissionRequest, type Rule } from "../../../src/permission/evaluate.ts";
import { ruleSet } from "../../../src/app/factory.ts";
import type { Tool } from "../../../src/sdk.ts";

const ROOT = "/work/repo";
const agent = (name: string) => builtinAgents(ROOT).find((a) => a.name === name)!;
const none = { user: [] as Rule[], project: [] as Rule[], flags: [] as Rule[] };
const edit = (path: string): PermissionRequest => ({ permission: "edit", pattern: path, always: [path] });
const decide = (rules: Rule[], request: PermissionRequest) => evaluate([request], rules).action;
const tool = (name: string): Tool => ({ name, description: name, input: {} as Tool["input"], run: () => "" });
const TOOLS = ["read", "glob", "grep", "list", "bash", "write", "edit", "todo", "webfetch", "history"].map(tool);

test("--agent plan is --permission-mode plan plus Markdown under .rein/plans/", () => {
  const plan = ruleSet("default", none, agent("plan"));
  expect(decide(plan, edit(`${ROOT}/.rein/plans/refactor.md`))).toBe("allow");
  expect(decide(plan, edit(`${ROOT}/.rein/plans/notes.txt`))).toBe("deny");
  expect(decide(plan, edit(`${ROOT}/src/main.ts`))).toBe("deny");
  const bash = (line: string): PermissionRequest => ({ permission: "bash", pattern: line, always: [] });
  const mode = ruleSet("plan", none);
  for (const line of ["rm -rf src", "npm test", "ls src *"]) expect(decide(plan, bash(line))).toBe(decide(mode, bash(line)));
});

test("an agent's allow cannot override the user's ask or deny; its own blanket deny wins over a user's allow", () => {
  const loose: AgentDefinition = {
    name: "loose", description: "d", prompt: "", mode: "all", source: "f.md", project: false,
    rules: [{ permission: "bash", pattern: "*", action: "allow" }, { permission: "webfetch", pattern: "*", action: "deny" }],
  };
  const user = { ...none, user: [{ permission: "bash", pattern: "git push *", action: "ask" as const }], flags: [{ permission: "webfetch", pattern: "*", action: "allow" as const }] };
  const rules = ruleSet("default", user, loose);
  expect(decide(rules, { permission: "bash", pattern: "git push origin", always: [] })).toBe("ask");
  expect(decide(rules, { permission: "bash", pattern: "make", always: [] })).toBe("allow");
  expect(decide(rules, { permission: "webfetch", pattern: "https://x.example/", always: [] })).toBe("deny");
});

test("explore is never shown an edit tool; tools whose rules deny them outright are not offered", () => {
  const explore = agent("explore");
  expect(offeredTools(TOOLS, explore, ruleSet("default", none, explore)).map((t) => t.name)).toEqual(["read", "glob", "grep", "list", "bash", "webfetch", "history"]);
  const denyBash = { ...none, user: [{ permission: "bash", pattern: "*", action: "deny" as const }] };
  expect(offeredTools(TOOLS, undefined, ruleSet("default", denyBash)).map((t) => t.name)).not.toContain("bash");
  const someBash = { ...denyBash, flags: [{ permission: "bash", pattern: "git *", action: "allow" as const }] };
  expect(offeredTools(TOOLS, undefined, ruleSet("default", someBash)).map((t) => t.name)).toContain("bash");
  // plan denies edits except its folder: the edit tools stay, write and edit both
  expect(offeredTools(TOOLS, agent("plan"), ruleSet("default", none, agent("plan"))).map((t) => t.name)).toContain("write");
});

test("a subagent's rules only tighten its parent's: its denies and asks mark requests, its allows change nothing", () => {
  const child: AgentDefinition = {
    name: "careful", description: "d", prompt: "", mode: "subagent", source: "c.md", project: false,
    rules: [{ permission: "edit", pattern: "*", action: "allow" }, { permission: "edit", pattern: "*.lock", action: "deny" }, { permission: "bash", pattern: "*", action: "ask" }],
  };
  const parent = ruleSet("auto", none);
  const tighten = tightening(child);
  const after = (request: PermissionRequest) => decide(parent, tighten([request])[0]!);
  expect(after(edit(`${ROOT}/bun.lock`))).toBe("deny");
  expect(after({ permission: "bash", pattern: "make", always: [] })).toBe("ask");
  expect(after(edit(`${ROOT}/a.ts`))).toBe("allow");
  // the parent asks for edits: the child's allow does not lift that
  expect(decide(ruleSet("default", none), tighten([edit(`${ROOT}/a.ts`)])[0]!)).toBe("ask");
  expect(tighten([edit(`${ROOT}/bun.lock`)])[0]!.fixed?.reason).toBe("the careful agent's rules forbid it");
});
