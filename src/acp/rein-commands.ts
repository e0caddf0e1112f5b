// rein's own slash commands over ACP, run by rein as the terminal runs them, never sent to the model
// as text: /compact [FOCUS], /undo [code|conversation] [N], /redo, /model [NAME]. They are announced
// with the workspace's commands; a workspace command of the same name is shadowed, as in the terminal.
import type { ResultEvent, Session } from "../session/session.ts";
import type { Store } from "../session/store.ts";
import { redoTurns, undoTurns, type UndoReport } from "../session/undo.ts";

export type Command = { name: string; description: string; argumentHint?: string };

export const REIN_COMMANDS: readonly Command[] = [
  { name: "compact", description: "summarise the conversation now, to free context (rein runs it)", argumentHint: "what to keep above all" },
  { name: "undo", description: "undo the last turn (or N): its file changes and its messages, or only one", argumentHint: "[code|conversation] [N]" },
  { name: "redo", description: "reverse the last /undo" },
  { name: "model", description: "show the model, or run the next turns on another", argumentHint: "[MODEL]" },
];

/** The workspace's commands and prompts after rein's own, one entry per name. */
export function withReinCommands(others: readonly Command[]): Command[] {
  const taken = new Set(REIN_COMMANDS.map((c) => c.name));
  return [...REIN_COMMANDS, ...others.filter((c) => !taken.has(c.name))];
}

/** `/name rest` when the prompt is one of rein's commands (text only, nothing attached). */
export function reinCommand(text: string, attached: number): { name: string; rest: string } | undefined {
  if (attached > 0) return undefined;
  const match = /^\/([a-z]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match || !REIN_COMMANDS.some((c) => c.name === match[1])) return undefined;
  return { name: match[1]!, rest: (match[2] ?? "").trim() };
}

export type CommandHost = {
  session: Session;
  store: Store;
  /** tells the client what the command did (an agent message) */
  say: (text: string) => void;
  /** the model was changed: the client's config options follow */
  modelChanged: () => void;
};

const UNDO_USAGE = "usage: /undo [code|conversation] [N] (both by default; N turns back, 1 by default), /redo";

/** Runs one of rein's commands; what it did is said to the client, and a failure is its text. */
export async function runReinCommand(host: CommandHost, name: string, rest: string): Promise<ResultEvent> {
  const { session } = host;
  if (name === "compact") {
    const result = await session.compactRun(rest || undefined);
    const said = result.text || result.error;
    if (said) host.say(said);
    return result;
  }
  const said = await (name === "model" ? model(host, rest) : undo(host, name === "redo", rest));
  host.say(said);
  return { type: "result", status: "success", text: said, usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, cost_usd: 0, turns: 0, duration_ms: 0, session_id: session.id, seq: -1 } as ResultEvent;
}

function model(host: CommandHost, rest: string): string {
  if (!rest) return `model: ${host.session.model}`;
  try {
    host.session.setModel(rest);
  } catch (error) {
    return `the model stays ${host.session.model}: ${error instanceof Error ? error.message : String(error)}`;
  }
  host.modelChanged();
  return `model: ${host.session.model} (from the next turn)`;
}

async function undo({ session, store }: CommandHost, redo: boolean, rest: string): Promise<string> {
  const checkpointsDir = session.checkpointsDir;
  if (!checkpointsDir) return "this session takes no checkpoints: there is nothing to undo";
  const words = rest.split(/\s+/).filter(Boolean);
  const part = words.find((w) => w === "code" || w === "conversation");
  const count = words.find((w) => w !== part);
  if (redo ? words.length > 0 : (count !== undefined && !/^[1-9]\d*$/.test(count)) || words.length > 2) return UNDO_USAGE;
  const row = store.getSession(session.id) ?? session.row;
  const report = redo
    ? await redoTurns(store, row, { checkpointsDir, force: false })
    : await undoTurns(store, row, { checkpointsDir, turns: Number(count ?? 1), code: part !== "conversation", conversation: part !== "code", force: false });
  return described(report, redo);
}

/** What an undo or redo did, in a few lines (as `rein undo` says it). */
export function described(report: UndoReport, redo: boolean): string {
  if (report.type !== "done") return report.files.length ? `${report.reason}:\n${report.files.map((f) => `  ${f}`).join("\n")}` : report.reason;
  const verb = redo ? "redone" : "undone";
  const lines: string[] = [];
  const code = report.code;
  if (code?.type === "done") {
    lines.push(`code of ${code.checkpoints.length === 1 ? "1 turn" : `${code.checkpoints.length} turns`} ${verb}: ${code.files.length} file${code.files.length === 1 ? "" : "s"} ${redo ? "changed again" : "put back"}`);
    lines.push(...code.files.slice(0, 20).map((f) => `  ${f}`));
    if (code.files.length > 20) lines.push(`  ... and ${code.files.length - 20} more`);
    if (code.side_effects.length) lines.push(`not ${verb} (a file checkpoint cannot take these back):`, ...code.side_effects.map((e) => `  ${e}`));
  } else if (code) lines.push(code.reason);
  if (report.messages > 0) lines.push(`conversation ${redo ? "put back from" : "cut back to before"} "${report.prompt ?? ""}" (${report.messages} message${report.messages === 1 ? "" : "s"})`);
  return lines.join("\n") || `nothing ${verb}`;
}
