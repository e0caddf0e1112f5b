// The permission dialog: what the call would do, why it asks, the exact rules "always" would save,
// and one key per answer. Drawn in the live region; the keys come from the terminal.
import chalk from "chalk";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { projectPaths } from "../../config/paths.ts";
import { saveAllowRules } from "../../config/save-rules.ts";
import { previewRows as changeRows } from "../diff-view.ts";
import { alwaysRules as approvalsFor } from "../../session/broker.ts";
import type { StampedEvent } from "../../session/events.ts";
import { formatRule } from "../../session/rules.ts";
import type { Session } from "../../session/session.ts";
import type { Context } from "../context.ts";
import { visible } from "./editor.ts";
import type { Key } from "./keys.ts";
import { readOwnText } from "../../sdk/own-file.ts";

export type AskEvent = Extract<StampedEvent, { type: "permission_ask" }>;
export type Choice = "once" | "session" | "project" | "user" | "reject" | "message";
type Option = { key: string; choice: Choice; label: string };

/** A larger file is not read to place an edit's preview in it (the preview then shows the replacement alone). */
const MAX_PREVIEW_FILE = 4 * 1024 * 1024;

/** The rules an "always" would save for this ask: the approvals the broker adds for it (one per command), exactly as shown. */
export function alwaysRules(ask: AskEvent): { permission: string; pattern: string }[] {
  return approvalsFor(ask.requests).map(({ permission, pattern }) => ({ permission, pattern }));
}

export function dialogOptions(ask: AskEvent, trusted: boolean): Option[] {
  const options: Option[] = [{ key: "y", choice: "once", label: "yes, once" }];
  if (alwaysRules(ask).length > 0) {
    options.push({ key: "a", choice: "session", label: "always (this session)" });
    // Project rules only apply in a trusted workspace, so they are only offered there.
    if (trusted) options.push({ key: "p", choice: "project", label: "always (this project)" });
    options.push({ key: "u", choice: "user", label: "always (for me)" });
  }
  options.push({ key: "n", choice: "reject", label: "no" }, { key: "m", choice: "message", label: "no, and tell it why" });
  return options;
}

/**
 * The dialog's rows at `width` columns: the call, what an edit or write would change (at most
 * `previewRows` rows), each request and why it asks, the rules "always" saves, the keys; `asker`
 * names the subagent that asks, when one does.
 */
export function dialogRows(ask: AskEvent, input: unknown, trusted: boolean, width: number, previewRows = 12, target?: TargetFile, asker?: string): string[] {
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
  const options = dialogOptions(ask, trusted).map((o) => `${chalk.bold(`[${o.key}]`)} ${o.label}`);
  const oneRow = `  ${options.join("  ")}`;
  // On a narrow terminal each answer gets its own row rather than being broken in the middle.
  if (Bun.stringWidth(oneRow) < width) lines.push(oneRow);
  else lines.push(...options.map((o) => `  ${o}`));
  return lines.flatMap((line) => Bun.wrapAnsi(line, Math.max(10, width - 1), { hard: true, trim: false }).split("\n"));
}

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

/** The answer a key gives, if it gives one: the option's letter, Enter for once, Escape for no. */
export function choiceFor(key: Key, ask: AskEvent, trusted: boolean): Choice | undefined {
  if (key.name === "enter") return "once";
  if (key.name === "escape") return "reject";
  if (key.name !== "text" || key.text.length !== 1) return undefined;
  return dialogOptions(ask, trusted).find((o) => o.key === key.text.toLowerCase())?.choice;
}

/** Answers the ask; "always" in the project or user config is saved first. Returns a line to print. */
export function answer(ctx: Context, session: Session, ask: AskEvent, choice: Exclude<Choice, "message">, message?: string): string {
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
