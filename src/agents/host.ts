// What the task tool needs of the session it runs in (given by the session, see session/subagents.ts),
// and what a child run reports back.
import type { AgentEvent, PermissionReply, ResultStatus, RunSpend, StampedEvent, Usage } from "../agent/types.ts";
import type { Rule } from "../permission/evaluate.ts";
import type { Tool } from "../sdk.ts";

export type SubagentParent = {
  id: string;
  cwd: string;
  /** the parent's run-time approvals, live: an "always" given during the run covers the children too */
  approvals: () => readonly Rule[];
  /** shows a child's event to whoever holds the parent (not stored in the parent's log) */
  relay: (event: StampedEvent) => void;
  /** adds a running child's reply function; returns its removal */
  answerer: (answer: (askId: string, reply: PermissionReply, message?: string) => boolean) => () => void;
  /** a child's run ended: its usage and cost roll up into the parent's result */
  spent: (usage: Usage, cost: number | null) => void;
  /** the parent's run's spending, shared with its children (and theirs): `--max-cost` holds for the total */
  spend: () => RunSpend;
  /**
   * a hook in a child said `continue: false`: the whole run stops, with this reason; `claude`: the
   * hook was Claude Code's, whose stop ends the run as a success with it as `hook_stop`
   */
  halt: (reason: string, claude?: { event: string; reason: string }) => void;
  /** puts an event in the parent's log (a worker's task_notification) */
  notice: (event: AgentEvent) => void;
  /** mail for the parent came: an idle parent is woken to answer it */
  wake: () => void;
  /** fires one of the team's hooks (TaskCreated, TaskCompleted, WorktreeCreate, ...) in the parent session; undefined when none is configured */
  hook?: (event: TeamHookEvent, fields: Record<string, unknown>, signal: AbortSignal) => Promise<TeamHookAnswer | undefined>;
  /** what taints the parent (a child starts with it), and where a child's taint goes when it ends */
  taintSources?: () => readonly { kind: ProvenanceKindName; source: string; turn: number }[];
  tainted?: (sources: readonly { kind: ProvenanceKindName; source: string; turn: number }[]) => void;
};

/** The team's hook events and what their hooks said (hooks/points.ts fires them; the same shapes). */
export type TeamHookEvent = "TaskCreated" | "TaskCompleted" | "TeammateIdle" | "WorktreeCreate" | "WorktreeRemove";
export type TeamHookAnswer = { block?: string; stop?: string; worktreePath?: string; errors: string[] };

type ProvenanceKindName = "workspace" | "outside" | "web" | "mcp" | "untrusted-repo";

/** The task tool (and anything else that runs children) for a session. */
export type SubagentSource = (parent: SubagentParent) => Tool[];

/** An `agent` hook's run: a read-only subagent (the explore agent's tools) given the hook's prompt; `id` names the hook run. */
export type HookAgentRun = (request: { prompt: string; model?: string; id: string; signal: AbortSignal }) => Promise<ChildOutcome>;
export type HookAgentSource = (parent: SubagentParent) => HookAgentRun;

export type ChildRequest = {
  agent: string;
  prompt: string;
  description: string;
  model?: string;
  /** a child session of this parent to continue */
  taskId?: string;
  /** run the child in a git worktree of its own (session/worktree.ts) */
  isolation?: "worktree";
  /** a background worker's name (its worktree's too) */
  name?: string;
  toolUseId: string;
  signal: AbortSignal;
};

export type ChildOutcome = {
  taskId: string;
  status: ResultStatus;
  text: string;
  error?: string;
  usage: Usage;
  cost: number | null;
  turns: number;
  durationMs: number;
  model: string;
};
