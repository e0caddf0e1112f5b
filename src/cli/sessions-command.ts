// rein sessions list | show ID | export ID [--format md|json] | rm ID | trash | restore ID
//   | prune [--older-than D] [--yes] | fork ID [--at N]
import type { ContentBlock, StampedEvent, ToolResultBlock } from "../app/events.ts";
import { checkpointLine } from "./checkpoint-line.ts";
import { toolResultText } from "../session/stored-history.ts";
import type { SessionRow, Store } from "../session/store.ts";
import { costLine, sessionSpend, type SessionSpend } from "./cost-line.ts";
import { UsageError } from "../app/args.ts";
import { openStore, openStoreForReading, type Context } from "../app/context.ts";
import { err } from "../app/output.ts";
import { fork } from "./sessions-fork.ts";
import { sessionLine, write } from "./sessions-format.ts";
import { listTrash, prune, restoreOne, trashOne } from "./sessions-trash.ts";
import { subagentLines } from "./sessions-tree.ts";

const READ_ONLY = new Set(["list", "show", "export", "trash"]);
const ACTIONS = "rein sessions list | show ID | export ID | rm ID | trash | restore ID | prune [--older-than D] [--yes] | fork ID [--at N]";

export function sessionsCommand(rest: string[], ctx: Context): number {
  const [action = "list", id] = rest;
  const warn = (m: string) => err(`rein: ${m}\n`);
  // Reading works on a store rein cannot write (a read-only file system); changing it does not.
  const store = READ_ONLY.has(action) ? openStoreForReading(ctx, warn).store : openStore(ctx, warn);
  try {
    if (action === "list") return list(store, ctx.args.json);
    if (action === "trash") return listTrash(store, ctx.args.json);
    if (action === "prune") return prune(store, ctx);
    if (!["show", "export", "rm", "restore", "fork"].includes(action)) throw new UsageError(`unknown action "${action}" (${ACTIONS})`);
    if (!id) throw new UsageError(`rein sessions ${action} needs a session id (see: rein sessions ${action === "restore" ? "trash" : "list"})`);
    if (action === "rm") return trashOne(store, id);
    if (action === "restore") return restoreOne(store, id);
    if (action === "fork") return fork(store, id, ctx);
    const found = store.findSession(id);
    if (typeof found === "string") throw new UsageError(found);
    if (action === "show") return write(sessionMarkdown(found, store));
    return write(ctx.args.format === "json" || ctx.args.json ? exportJson(found, store) : sessionMarkdown(found, store));
  } finally {
    store.close();
  }
}

function list(store: Store, json: boolean): number {
  const rows = store.listSessions({ limit: 100 });
  if (json) return write(`${JSON.stringify(rows)}\n`);
  if (rows.length === 0) return write("no sessions yet\n");
  return write(`${rows.map((r) => sessionLine(r)).join("\n")}\n`);
}

/** "2 runs", or "2 runs, 1 compaction" when a compaction outside the runs (/compact) is counted too. */
function spendCounts({ runs, unfinished, compactions }: SessionSpend): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const ended = unfinished > 0 ? ` (${unfinished} without a result: killed, or still running)` : "";
  return `${plural(runs, "run")}${ended}${compactions > 0 ? `, ${plural(compactions, "compaction")}` : ""}`;
}

function changeText(event: StampedEvent): string {
  if (event.type === "checkpoint") return checkpointLine(event);
  if (event.type === "taint") return `tainted from here: the session read ${event.source}${event.turn ? ` (turn ${event.turn})` : ""}; calls that could send data out or plant code ask a person`;
  if (event.type === "taint_cleared") return `trusted by the user: ${event.source} no longer taints the session`;
  if (event.type !== "undo") return "";
  return `${event.redo ? "redone" : "undone"}: ${event.files.length} file${event.files.length === 1 ? "" : "s"}, ${event.messages} message${event.messages === 1 ? "" : "s"}`;
}

function exportJson(row: SessionRow, store: Store): string {
  return `${JSON.stringify({ session: row, messages: store.messages(row.id), events: store.events(row.id) }, null, 2)}\n`;
}

/** A session as Markdown: its header, spending, subagents, messages and the changes it made (`sessions show`, `/tasks N`). */
export function sessionMarkdown(row: SessionRow, store: Store): string {
  const spend = sessionSpend(store.spendEvents(row.id));
  const cost = spend.runs + spend.compactions > 0 ? `\n${spendCounts(spend)} · ${costLine(spend)}\n` : "";
  const parts = [`# ${row.title ?? "Session"}\n\n${row.id} · ${row.model} · ${row.cwd} · ${new Date(row.created_at).toISOString()}\n${cost}${subagentLines(row, store)}`];
  const events = store.events(row.id);
  const changes = events.filter((e) => e.type === "checkpoint" || e.type === "undo" || e.type === "taint" || e.type === "taint_cleared");
  // Where each result came from, when not the workspace (docs/permissions.md).
  const from = new Map(events.flatMap((e) => (e.type === "tool_end" && e.provenance && e.provenance.kind !== "workspace" ? [[e.id, `${e.provenance.kind}: ${e.provenance.source}`] as const] : [])));
  const changesBefore = (seq: number) => {
    while (changes[0] && changes[0].seq < seq) parts.push(`> ${changeText(changes.shift()!)}\n`);
  };
  for (const m of store.messages(row.id)) {
    changesBefore(m.seq);
    const status = m.status === "complete" ? "" : ` (${m.status})`;
    const body = m.content.map((block) => blockText(block, from)).filter(Boolean).join("\n\n");
    if (body) parts.push(`## ${m.role}${status}\n\n${body}\n`);
  }
  changesBefore(Infinity);
  return `${parts.join("\n")}`;
}

function blockText(block: ContentBlock, from: ReadonlyMap<string, string>): string {
  switch (block.type) {
    case "text":
      return String(block.text);
    case "tool_use":
      return `**tool ${String(block.name)}** \`${JSON.stringify(block.input)}\``;
    case "tool_result":
      return `**result${block.is_error ? " (error)" : ""}${from.has((block as ToolResultBlock).tool_use_id) ? ` from ${from.get((block as ToolResultBlock).tool_use_id)}` : ""}**\n\n\`\`\`\n${toolResultText((block as ToolResultBlock).content)}\n\`\`\``;
    default:
      return "";
  }
}

