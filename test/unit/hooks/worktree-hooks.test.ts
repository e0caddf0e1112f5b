// WorktreeCreate and WorktreeRemove through a real session, real hooks and a real git repository:
// with them configured, a task's `isolation: "worktree"` folder is the one the hook made (the last
// line it printed), and an unchanged one is handed to the remove hook instead of git; a failing
// create hook fails the task with its reason; without them git does the work as before.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinAgents } from "../../../src/agents/builtin.ts";
import type { HooksConfig } from "../../../src/config/hooks-schema.ts";
import { Session } from "../../../src/session/session.ts";
import { withSubagents } from "../../../src/session/subagents.ts";
import type { FakeStep } from "../../fake/types.ts";
import { hookedOptions } from "./hook-kit.ts";
import { sentResults, useKit } from "../../support/session-kit.ts";

const kit = useKit();
const say = (text: string): FakeStep => ({ reply: [{ type: "text", text }] });
const isolated = (name: string): FakeStep => ({ reply: [{ type: "tool_use", name: "task", input: { description: "look", prompt: "look around", subagent_type: "explore", isolation: "worktree" } }] });

function repo(): string {
  const root = join(kit().dir.path, `repo-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "a.txt"), "a\n");
  for (const args of [["init", "-q"], ["add", "-A"], ["-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "one"]]) expect(Bun.spawnSync(["git", ...args], { cwd: root }).exitCode).toBe(0);
  return root;
}

function session(root: string, hooks: HooksConfig): Session {
  const { options } = hookedOptions(kit(), hooks, { tools: [] });
  return Session.create(root, withSubagents(options, { agents: builtinAgents(root) }));
}

test("a WorktreeCreate hook makes the worker's folder; WorktreeRemove gets it back unchanged and removes it", async () => {
  const root = repo();
  const made = join(kit().dir.path, "made-by-hook");
  const log = join(kit().dir.path, "wt-hooks.jsonl");
  const hooks: HooksConfig = {
    WorktreeCreate: [{ hooks: [{ type: "command", command: `p=$(cat); echo "$p" >> ${log}; git worktree add -q --detach ${made} >&2 && echo "making it" && echo ${made}` }] }],
    WorktreeRemove: [{ hooks: [{ type: "command", command: `p=$(cat); echo "$p" >> ${log}; git worktree remove --force "$(echo "$p" | jq -r .worktree_path)"` }] }],
  };
  const lead = session(root, hooks);
  kit().fake.script(isolated("w"), { respond: (body: any) => say(`I am in ${JSON.stringify(body.system).includes(made) ? "the hook's folder" : "somewhere else"}`) }, say("done"));

  const result = await lead.prompt("look in a worktree");

  expect(result.status).toBe("success");
  const [child] = kit().store.childSessions(lead.id);
  expect(child!.cwd).toBe(made);
  const payloads = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(payloads.map((p) => p.hook_event_name)).toEqual(["WorktreeCreate", "WorktreeRemove"]);
  expect(payloads[0]).toMatchObject({ session_id: lead.id, name: expect.stringMatching(/^task-/) });
  expect(payloads[1]).toMatchObject({ worktree_path: made });
  expect(existsSync(made)).toBe(false);
  expect(sentResults(kit().fake.requests.at(-1))[0]!.content).not.toContain("<worktree>");
});

test("a WorktreeCreate hook that exits non-zero fails the task with its reason; nothing is made", async () => {
  const root = repo();
  const lead = session(root, { WorktreeCreate: [{ hooks: [{ type: "command", command: "echo 'no worktrees on this machine' >&2; exit 1" }] }] });
  kit().fake.script(isolated("w"), say("could not"));

  await lead.prompt("look in a worktree");

  const sent = JSON.stringify(sentResults(kit().fake.requests.at(-1)));
  expect(sent).toContain("the WorktreeCreate hook failed: exit 1: no worktrees on this machine");
  expect(kit().store.childSessions(lead.id)).toHaveLength(0);
});
