// A team's worker as everyone reads it (session/team.ts runs them): its state, what it did, and the
// `<task-notification>` text a finished one leaves its parent, in Claude Code's shape.
import type { StampedEvent, TextBlock, Usage } from "../agent/types.ts";
import type { SubagentParent } from "../agents/host.ts";
import type { ResultEvent } from "./session-options.ts";
import type { TaintSource } from "./taint.ts";
import type { Store } from "./store.ts";

export const DEFAULT_WORKER_CAP = 4;

export type WorkerState = "queued" | "running" | "completed" | "failed" | "killed";
export const FINISHED: readonly WorkerState[] = ["completed", "failed", "killed"];

export type Worker = {
  /** the worker's session id (a bash command's: its own id) */
  id: string;
  name?: string;
  kind: "agent" | "bash";
  agent: string;
  description: string;
  parentId: string;
  toolUseId: string;
  state: WorkerState;
  startedAt: number;
  durationMs: number;
  /** the worker's last text (a bash command's: the end of its output) */
  text: string;
  error?: string;
  usage: Usage;
  cost: number | null;
  toolUses: number;
  /** the last thing it did (a tool and its target), for the terminal's worker lines */
  lastAction: string;
  /** a finished worker's changed worktree (path, branch, diffstat), named in its notification */
  worktree?: string;
};

/** What the team drives of a worker's session: a Session in this process, or a rein process in tmux (tmux-worker.ts). */
export type WorkerSession = {
  id: string;
  prompt: (text: string) => Promise<ResultEvent>;
  abort: () => void;
  subscribe: (listener: (event: StampedEvent) => void) => () => void;
  taintSources: () => TaintSource[];
};

/** How a worker's session is driven: started, prompted again with a message, stopped. */
export type WorkerRun = {
  session: WorkerSession;
  parent: SubagentParent;
  /** lets go of what the run holds (its subscriptions, its answerer) once the worker is done for good */
  release: () => void;
  /** the worker ended: its worktree is finished; a line naming it when it is kept (changed) */
  finish?: () => Promise<string | undefined>;
  /** the worker is about to go idle (its run ended, no mail waits): a text keeps it working with that prompt */
  idle?: (signal: AbortSignal) => Promise<string | undefined>;
  /** false once there is nothing left to resume the worker in */
  resumable?: boolean;
};

export type StartSpec = {
  run: WorkerRun;
  name?: string;
  agent: string;
  description: string;
  toolUseId: string;
  prompt: string;
};

export function label(worker: Worker): string {
  return worker.name ? `${worker.name} (${worker.id})` : worker.id;
}

export function summaryOf(worker: Worker): string {
  const who = worker.kind === "bash" ? `Command "${worker.description}"` : `Agent "${worker.name ?? worker.description}"`;
  const how = worker.state === "completed" ? "completed" : worker.state === "killed" ? "was stopped" : `failed: ${worker.error ?? "unknown"}`;
  return `${who} ${how}`;
}

/** The user message a finished worker leaves its parent (Claude Code's shape). */
export function notificationText(worker: Worker, summary = summaryOf(worker)): string {
  const tokens = worker.usage.input_tokens + worker.usage.output_tokens + worker.usage.cache_read_input_tokens + worker.usage.cache_creation_input_tokens;
  return [
    "<task-notification>",
    `<task-id>${worker.id}</task-id>`,
    `<status>${worker.state}</status>`,
    `<summary>${summary}</summary>`,
    `<result>${worker.text}</result>`,
    ...(worker.worktree ? [`<worktree>${worker.worktree}</worktree>`] : []),
    `<usage><total_tokens>${tokens}</total_tokens><tool_uses>${worker.toolUses}</tool_uses><duration_ms>${worker.durationMs}</duration_ms></usage>`,
    "</task-notification>",
  ].join("\n");
}

export function actionOf(tool: string, input: unknown): string {
  const fields = (input ?? {}) as Record<string, unknown>;
  const target = [fields.command, fields.file_path, fields.path, fields.pattern, fields.url, fields.description].find((v) => typeof v === "string") as string | undefined;
  const short = target && target.length > 50 ? `${target.slice(0, 47)}...` : target;
  return short ? `${tool} ${short}` : tool;
}

export function lastText(store: Store, id: string): string {
  const events = store.events(id);
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === "assistant") {
      const text = event.content.filter((b) => b.type === "text").map((b) => (b as TextBlock).text).join("");
      if (text) return text;
    }
  }
  return "";
}

export function round(dollars: number): number {
  return Math.round(dollars * 1e6) / 1e6;
}
