// The permission dialog: what the call would do, why it asks, the exact rules "always" would save,
// and a numbered list of answers, chosen as in Claude Code: the arrows (or the answer's number)
// move the mark, Enter confirms it, Esc says no. Drawn in the live region; the keys come from the
// terminal (dialog-keys.ts says which keys are answers at all).
import chalk from "chalk";
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import { saveAllowRules } from "../../config/save-rules.ts";
import { previewRows as changeRows } from "../diff-view.ts";
import { alwaysRules as approvalsFor } from "../../session/broker.ts";
import type { StampedEvent } from "../../app/events.ts";
import { formatRule } from "../../app/rules.ts";
import type { Session } from "../../session/session.ts";
import type { Context } from "../../app/context.ts";
import { visible } from "./editor.ts";
import { readOwnText } from "../../sdk/own-file.ts";

export type AskEvent = Extract<StampedEvent, { type: "permission_ask" }>;
export type Choice = "once" | "folder" | "edits" | "session" | "project" | "user" | "trust" | "reject" | "message";
type Option = { key: string; choice: Choice; label: string };

const FILE_TOOLS = new Set(["edit", "write"]);

/** A larger file is not read to place an edit's preview in it (the preview then shows the replacement alone). */
const MAX_PREVIEW_FILE = 4 * 1024 * 1024;

/** The rules an "always" would save for this ask: the approvals the broker adds for it (one per command), exactly as shown. */
export function alwaysRules(ask: AskEvent): { permission: string; pattern: string }[] {
  return approvalsFor(ask.requests).map(({ permission, pattern }) => ({ permission, pattern }));
}

/** The answers, numbered from 1 (`key` is the number). A file edit also offers its folder and every edit of the session. */
export function dialogOptions(ask: AskEvent, trusted: boolean): Option[] {
  const options: Omit<Option, "key">[] = [{ choice: "once", label: "Yes" }];
  // A tainted session's ask: the person may say the content that tainted it is fine (docs/permissions.md).
  if (ask.taint_sources?.length) options.push({ choice: "trust", label: `Yes, and trust what this session read (I have read it): ${visible(ask.taint_sources.join(", "))}` });
  const folder = editFolder(ask);
  if (folder) {
    options.push({ choice: "folder", label: `Yes, and allow edits in ${visible(folder)}/ this session` });
    options.push({ choice: "edits", label: "Yes, allow all edits this session (shift+tab)" });
  }
  if (alwaysRules(ask).length > 0) {
    options.push({ choice: "session", label: "Yes, always (this session)" });
    // Project rules only apply in a trusted workspace, so they are only offered there.
    if (trusted) options.push({ choice: "project", label: "Yes, always (this project)" });
    options.push({ choice: "user", label: "Yes, always (for me)" });
  }
  options.push({ choice: "reject", label: "No (esc)" }, { choice: "message", label: "No, and tell it what to do instead" });
  return options.map((o, i) => ({ ...o, key: String(i + 1) }));
}

/** The folder an edit or write asks for (the one file it would change), if this ask is one. */
export function editFolder(ask: AskEvent): string | undefined {
  if (!FILE_TOOLS.has(ask.tool)) return undefined;
  const edits = ask.requests.filter((r) => r.permission === "edit");
  if (edits.length !== 1 || edits[0]!.opaque) return undefined;
  return dirname(edits[0]!.pattern);
}

/** The approvals "allow edits in this folder" adds: edits below it, and reaching it when it is outside the workspace. */
export function folderRules(ask: AskEvent): { permission: string; pattern: string }[] {
  const folder = editFolder(ask);
  if (!folder) return [];
  const outside = ask.requests.some((r) => r.permission === "external_directory");
  return [{ permission: "edit", pattern: `${folder}/*` }, ...(outside ? [{ permission: "external_directory", pattern: `${folder}/*` }] : [])];
}

/**
 * The dialog's rows at `width` columns: the call, what an edit or write would change (at most
 * `previewRows` rows), each request and why it asks, the rules "always" saves, the keys; `asker`
 * names the subagent that asks, when one does.
 */
export function dialogRows(ask: AskEvent, input: unknown, trusted: boolean, width: number, previewRows = 12, target?: TargetFile, asker?: string, state: DialogView = { selected: 0, armed: true }): string[] {
  // A subagent's ask says which one asks: "explore · find the handler" is its task call's agent and description.
  const who = asker ? `subagent ${visible(asker)}: ` : "";
  const lines: string[] = [chalk.bold.yellow(`? ${who}${ask.tool} wants to:`)];
  const main = mainInput(input);
  // What the model wrote is drawn, never interpreted: its control characters cannot reach the terminal.
  if (main) lines.push(...main.split("\n").slice(0, 6).map((line) => `  ${visible(line)}`));
  if (ask.tool === "write" && target) lines.push(chalk.dim(`  ${writeNote(target)}`));
  const fileText = target?.exists ? target.text : undefined;
  const preview = changeRows(ask.tool, input, Math.max(10, width - 3), previewRows, { color: chalk.level > 0 }, fileText);
  lines.push(...preview.map((row) => `  ${row}`));
  for (const r of ask.requests) {
    const extra = r as { reason?: string; fixed?: { reason: string } };
    const why = extra.fixed?.reason ?? extra.reason ?? (r.opaque ? "cannot be checked statically" : "no rule allows it");
    lines.push(`  ${chalk.cyan(visible(formatRule(r)))} ${chalk.dim(`asks: ${visible(why)}`)}`);
  }
  if (ask.reason) lines.push(`  ${chalk.yellow(ask.reason)}`);
  const rules = alwaysRules(ask);
  if (rules.length > 0) lines.push(chalk.dim(`  always saves: ${visible(rules.map(formatRule).join(", "))}`));
  lines.push(chalk.bold("Do you want to proceed?"));
  for (const [i, o] of dialogOptions(ask, trusted).entries()) {
    lines.push(i === state.selected ? chalk.cyan(`❯ ${o.key}. ${o.label}`) : `  ${o.key}. ${o.label}`);
  }
  // Keys typed just before the dialog came (a prompt being written) are no answers: they stay in the prompt.
  lines.push(chalk.dim(state.armed ? "↑↓ choose · Enter confirms · Esc: no" : "(what you type goes to your prompt; the answer keys work in a moment)"));
  return lines.flatMap((line) => Bun.wrapAnsi(line, Math.max(10, width - 1), { hard: true, trim: false }).split("\n"));
}

/** Which answer is marked, and whether keys answer yet. */
export type DialogView = { selected: number; armed: boolean };

/** The file an edit or write call would change: whether it exists and, unless it is too large or unreadable, its text. */
export type TargetFile = { exists: false } | { exists: true; text?: string };

export function targetFile(tool: string, input: unknown, cwd: string): TargetFile | undefined {
  const path = (tool === "edit" || tool === "write") && typeof input === "object" && input !== null ? (input as Record<string, unknown>).path : undefined;
  if (typeof path !== "string") return undefined;
  const file = resolve(cwd, path);
  try {
    return statSync(file).size <= MAX_PREVIEW_FILE ? { exists: true, text: readOwnText(file) } : { exists: true };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? { exists: false } : { exists: true };
  }
}

/** Whether a write creates a file or replaces one (and how long that one is). */
function writeNote(target: TargetFile): string {
  if (!target.exists) return "(a new file)";
  if (target.text === undefined) return "(replaces an existing file)";
  const lines = target.text.split("\n").length - (target.text.endsWith("\n") ? 1 : 0);
  return `(replaces an existing file of ${lines} ${lines === 1 ? "line" : "lines"})`;
}

/** Answers the ask; "always" in the project or user config is saved first. Returns a line to print. */
export function answer(ctx: Context, session: Session, ask: AskEvent, choice: Exclude<Choice, "message" | "edits">, message?: string): string {
  const rules = alwaysRules(ask);
  const shown = rules.map(formatRule).join(", ");
  if (choice === "reject") {
    session.reply(ask.id, "reject", message);
    return chalk.dim(message ? `rejected: ${message}` : "rejected");
  }
  if (choice === "once") {
    session.reply(ask.id, "once");
    return chalk.dim("allowed once");
  }
  if (choice === "trust") {
    const cleared = (ask.taint_sources ?? []).filter((source) => session.clearTaint(source));
    session.reply(ask.id, "once");
    return chalk.dim(`allowed once; trusted from now on: ${cleared.join(", ") || "(nothing left to trust)"}`);
  }
  if (choice === "folder") {
    const folder = folderRules(ask).map((r) => ({ ...r, action: "allow" as const, source: "approved in this session" }));
    session.approve(folder);
    session.reply(ask.id, "once");
    return chalk.dim(`allowed for this session: ${folder.map(formatRule).join(", ")}`);
  }
  let note = `allowed for this session: ${shown}`;
  if (choice !== "session") {
    const file = choice === "project" ? projectPaths(ctx.projectRoot).config : ctx.paths.userConfig;
    try {
      saveAllowRules(file, rules);
      note = `allowed always, saved to ${file}: ${shown}`;
    } catch (error) {
      note = `${(error as Error).message}; allowed for this session only: ${shown}`;
    }
  }
  session.reply(ask.id, "always");
  return chalk.dim(note);
}

function mainInput(input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const record = input as Record<string, unknown>;
  const value = record.command ?? record.path ?? record.url ?? record.pattern ?? Object.values(record).find((v) => typeof v === "string");
  return typeof value === "string" ? value : "";
}
