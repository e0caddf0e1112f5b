// Wires the task tool into a session: each task call runs a child Session, stored and linked to its
// parent and tool call, with the agent's prompt (after the parent's instructions), tools, rules and
// model, none of the parent's conversation (subagent-runs.ts, loaded with the first task). The
// child's events are shown on the parent's stream, its asks answered through the parent, its
// spending added to the parent's result.
import type { HookAgentSource, SubagentParent } from "../agents/host.ts";
import { DEFAULT_TASK_CAP, taskTool } from "../agents/task-tool.ts";
import type { AgentDefinition } from "../agents/types.ts";
import type { Rule } from "../permission/evaluate.ts";
import { teamTools } from "../agents/team-tools.ts";
import type { SessionOptions, TeamHolder } from "./session.ts";
import type { Store } from "./store.ts";
import type { Worker } from "./team.ts";
import { taskListTools } from "../agents/task-list-tools.ts";
import { taskListHost } from "./team-host.ts";
import { take } from "./mailbox.ts";
import type { TmuxSettings } from "./tmux-worker.ts";

/** how deep subagents nest: a session at this depth starts no more */
export const MAX_TASK_DEPTH = 3;

export type SubagentSettings = {
  agents: readonly AgentDefinition[];
  /** how many children of one session run at once (default 4) */
  cap?: number;
  /** how many background workers of the process run at once (default 4) */
  workers?: number;
  /** the depth of the session these options are for: 0 for a top-level one */
  depth?: number;
  /** the process's team, shared by a lead and its workers (made on first use) */
  team?: TeamHolder;
  /** `"teammateMode": "tmux"`: background workers run as rein processes in tmux panes */
  tmux?: TmuxSettings;
};

/** `options` with the task tool (refusing past MAX_TASK_DEPTH), the team's tools, and the subagent `agent` hooks run. */
export function withSubagents(options: SessionOptions, settings: SubagentSettings): SessionOptions {
  const depth = settings.depth ?? 0;
  const cap = settings.cap ?? DEFAULT_TASK_CAP;
  const team = settings.team ?? options.team ?? teamHolder(options.store, settings.workers);
  const shared = { ...settings, depth, team };
  return {
    ...options,
    team,
    // Only a process that started a worker has mail to look for at turn boundaries.
    inbox: (id) => team.current?.inbox(id) ?? memberInbox(options.store, id),
    hookAgent: hookAgents(options, shared),
    subagents: (parent) => {
      // What a person approved with "always" for a subagent holds for that agent's later tasks in this session.
      const approved = new Map<string, Rule[]>();
      const tooDeep = () => new Error(`subagents nest at most ${MAX_TASK_DEPTH} deep and this one is at depth ${depth}; do this part of the task yourself`);
      return [
        taskTool({
          agents: settings.agents,
          cap,
          run: (request) => (depth >= MAX_TASK_DEPTH ? Promise.reject(tooDeep()) : runs().then((r) => r.runChild(options, shared, parent, request, approved))),
          start: (request) => (depth >= MAX_TASK_DEPTH ? Promise.reject(tooDeep()) : runs().then((r) => r.startWorker(options, shared, parent, request, approved))),
        }),
        ...teamTools(teamHost(team, parent)),
        ...taskListTools(taskListHost(options.store, team, parent, (m) => (depth >= MAX_TASK_DEPTH ? Promise.reject(tooDeep()) : startMember(options, shared, parent, m, approved))), { lead: depth === 0 }),
      ];
    },
  };
}

export function teamHost(team: TeamHolder, parent: SubagentParent) {
  return {
    send: (to: string, message: string) => team.get().send(parent.id, to, message),
    stop: (id: string) => team.get().stop(id, parent.id),
    output: (id: string) => team.get().output(id, parent.id),
  };
}

/** A member team_create starts: a background worker of the agent named (general by default). */
function startMember(parentOptions: SessionOptions, settings: SubagentSettings & { team: TeamHolder }, parent: SubagentParent, member: { name: string; prompt: string; agent: string; toolUseId: string; signal: AbortSignal }, approved: Map<string, Rule[]>): Promise<Worker> {
  const agent = settings.agents.find((a) => a.name === member.agent && a.mode !== "primary");
  if (!agent) return Promise.reject(new Error(`unknown subagent_type "${member.agent}" (known: ${settings.agents.filter((a) => a.mode !== "primary").map((a) => a.name).join(", ")})`));
  return runs().then((r) => r.startWorker(parentOptions, settings, parent, { agent: agent.name, prompt: member.prompt, description: `team member ${member.name}`, name: member.name, toolUseId: member.toolUseId, signal: member.signal, ...(agent.isolation ? { isolation: "worktree" as const } : {}) }, approved));
}

const children = new WeakMap<Store, Map<string, boolean>>();

/**
 * The mail of a worker whose process has no team of its own (a tmux pane's rein: its lead is another
 * process): a session with a parent reads its mailbox at its turn boundaries; a top-level one has none
 * until it starts a worker. Whether a session has a parent is asked once.
 */
export function memberInbox(store: Store, id: string): { type: "text"; text: string }[] {
  let known = children.get(store);
  if (!known) children.set(store, (known = new Map()));
  let child = known.get(id);
  if (child === undefined) known.set(id, (child = Boolean(store.getSession(id)?.parent_id)));
  return child ? take(store.db, id).map((mail) => ({ type: "text" as const, text: mail.body })) : [];
}

/** A worker's name is what send_message's `to` matches: a short word, not a task id, not "lead". */
export function nameProblem(name: string): string | undefined {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/.test(name)) return `the worker name "${name}" is not usable: use 1-40 letters, digits, "_", "-" or "." (starting with a letter or digit)`;
  if (name === "lead" || /^s_/.test(name)) return `the worker name "${name}" is taken ("lead" and names starting s_ mean the lead and task ids); choose another`;
  return undefined;
}

/** The process's team, made the first time something asks for it. */
export function teamHolder(store: Store, cap?: number): TeamHolder {
  const holder: TeamHolder = {
    current: undefined,
    get: () => (holder.current ??= newTeam(store, cap)),
  };
  return holder;
}

/** The explore agent, run without hooks (an agent hook on a tool call would fire again on its own calls). */
function hookAgents(options: SessionOptions, settings: SubagentSettings): HookAgentSource {
  const { hooks: _, ...unhooked } = options;
  return (parent) => {
    const approved = new Map<string, Rule[]>();
    return async (request) => {
      if (!settings.agents.some((a) => a.name === HOOK_AGENT)) throw new Error(`agent hooks run the ${HOOK_AGENT} agent, which this workspace does not have`);
      const child = { agent: HOOK_AGENT, prompt: request.prompt, description: "agent hook", toolUseId: request.id, signal: request.signal, ...(request.model ? { model: request.model } : {}) };
      return runs().then((r) => r.runChild(unhooked, settings, parent, child, approved));
    };
  };
}

const HOOK_AGENT = "explore";

/** An agent with a tool list lacking the task tool, or one that disallows it, starts no subagents. */
export function mayStartTasks(agent: AgentDefinition): boolean {
  return (!agent.tools || agent.tools.includes("task")) && !agent.disallowedTools?.includes("task");
}

// A task's run (its child session, options, worktree, the worker) loads with the first task, by
// import() (it reaches the session, whose tools' module has a top-level await): a session that
// starts none loads only the tools' definitions. The team of background workers, their
// worktrees and tmux panes load with the first worker that needs them (subagent-runs.ts).
const runs = () => import("./subagent-runs.ts");

function newTeam(store: Store, cap: number | undefined): import("./team.ts").Team {
  const { Team, DEFAULT_WORKER_CAP } = require("./team.ts") as typeof import("./team.ts");
  return new Team(store, cap ?? DEFAULT_WORKER_CAP);
}
