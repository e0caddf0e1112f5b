// /tasks in the terminal: the subagents this session ran (running or finished), numbered as a
// tree; `/tasks N` (or a child's id, a prefix is enough) prints that child's transcript, as
// `rein sessions show` has it.
import chalk from "chalk";
import type { Store, SessionRow } from "../../session/store.ts";
import type { Team } from "../../session/team.ts";
import { workerState } from "../../session/worker-rows.ts";
import { sessionSpend } from "../cost-line.ts";
import { markdownRenderer } from "../markdown.ts";
import { sessionMarkdown } from "../sessions-command.ts";
import { visible } from "./editor.ts";

/** A child's transcript longer than this shows its end (rein sessions show has it all). */
const SHOWN_LINES = 300;

type Task = { row: SessionRow; depth: number };

export function tasksSlash(store: Store, sessionId: string, rest: string, width: number, color: boolean, team?: Team): string {
  const tasks = tasksOf(store, sessionId, 0);
  if (!rest) return listing(store, tasks, team);
  const chosen = /^\d+$/.test(rest) ? tasks[Number(rest) - 1] : tasks.find((t) => t.row.id.startsWith(rest));
  if (!chosen) return chalk.yellow(tasks.length ? `no task ${rest} here: /tasks lists them (1 to ${tasks.length})` : "this session has run no subagents yet");
  const md = markdownRenderer({ width: width - 1, color });
  const rows = [...md.push(`${sessionMarkdown(chosen.row, store)}\n`), ...md.flush()];
  const cut = rows.length - SHOWN_LINES;
  const shown = cut > 0 ? [chalk.dim(`… ${cut} earlier lines (rein sessions show ${chosen.row.id} has them all)`), ...rows.slice(cut)] : rows;
  return shown.join("\n");
}

function tasksOf(store: Store, parentId: string, depth: number): Task[] {
  return store.childSessions(parentId).flatMap((row) => [{ row, depth }, ...tasksOf(store, row.id, depth + 1)]);
}

function listing(store: Store, tasks: readonly Task[], team?: Team): string {
  if (tasks.length === 0) return chalk.dim("this session has run no subagents yet (the model starts them with the task tool)");
  const lines = tasks.map(({ row, depth }, i) => {
    const spend = store.spendEvents(row.id);
    // A background worker has its state; a foreground task whose run started (its prompt is stored) and has no result yet is still going.
    const state = workerState(store, row, team) ?? (spend.at(-1)?.type === "user" ? "running" : "finished");
    const name = row.task_name ? ` "${visible(row.task_name)}"` : "";
    const cost = sessionSpend(spend).cost_usd;
    const money = cost === null ? "cost unknown" : `$${cost.toFixed(4)}`;
    return `${String(i + 1).padStart(3)}. ${"  ".repeat(depth)}${row.agent ?? "agent"} ${row.id}${name} · ${state} · ${money}${row.title ? ` · ${visible(row.title)}` : ""}`;
  });
  return chalk.dim([...lines, "open one's transcript with /tasks N"].join("\n"));
}
