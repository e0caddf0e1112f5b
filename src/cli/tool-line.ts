// How the terminal shows a tool call: one line while it runs, one line when it ends. Pure: the
// caller prints what these return.
import { isAbsolute, relative, sep } from "node:path";
import type { ChalkInstance } from "chalk";
import { printable } from "./printable.ts";

export type Styles = { color: boolean };

type End = { is_error: boolean; output: string; truncated: boolean };

/** Results are short summaries; the line cuts them further to the terminal's width. */
const MAX_RESULT = 120;
const PROGRESS_ARGUMENT = 100;
const DENIED = "Permission denied: ";
const ELLIPSIS = "…";
// Made on first use: chalk reads the terminal's colours through node:tty, which loads node:net and
// the streams (about 7 ms), and print mode's progress lines paint nothing.
let painters: { plain: ChalkInstance; color: ChalkInstance } | undefined;
// Made on first use: a Segmenter loads ICU data (about 2 MiB and 4 ms), which a run that cuts no line never needs.
let graphemes: Intl.Segmenter | undefined;

export function paint(s: Styles): ChalkInstance {
  if (!painters) {
    const { Chalk } = require("chalk") as typeof import("chalk");
    painters = { plain: new Chalk({ level: 0 }), color: new Chalk({ level: 1 }) };
  }
  return s.color ? painters.color : painters.plain;
}

/** The call's main argument on one line, at most `max` columns. */
export function mainArgument(name: string, input: unknown, cwd: string, max: number): string {
  return fitColumns(oneLine(rawArgument(name, input, cwd)), max);
}

/** Shown while the call runs, after a spinner frame: "bash  npm test", at most `width` columns. */
export function runningLine(name: string, input: unknown, cwd: string, width: number, s: Styles): string {
  const c = paint(s);
  const title = fitColumns(oneLine(name), width);
  const argument = mainArgument(name, input, cwd, width - Bun.stringWidth(title) - 2);
  return argument === "" ? c.bold(title) : `${c.bold(title)}  ${argument}`;
}

/** Print mode's progress line on stderr: "› bash npm test", the main argument as the terminal shows it. */
export function progressLine(name: string, input: unknown, cwd: string): string {
  const argument = mainArgument(name, input, cwd, PROGRESS_ARGUMENT);
  return argument === "" ? `› ${oneLine(name)}` : `› ${oneLine(name)} ${argument}`;
}

/** Why a rule denied a call, from its tool_end (the broker's "Permission denied: ..." result); undefined for any other end. */
export function deniedReason(end: { is_error: boolean; output: string }): string | undefined {
  if (!end.is_error || !end.output.startsWith(DENIED)) return undefined;
  const reason = end.output.slice(DENIED.length);
  const cut = reason.indexOf(". Do not try");
  return oneLine(cut < 0 ? reason : reason.slice(0, cut));
}

/** "✓ bash  npm test  1.2s  → 14 lines", at most `width` columns; the argument and the result share what is left. */
export function finishedLine(
  start: { name: string; input: unknown },
  end: End,
  durationMs: number,
  cwd: string,
  width: number,
  s: Styles,
): string {
  const c = paint(s);
  const mark = end.is_error ? c.red("✗") : c.green("✓");
  const name = oneLine(start.name);
  const duration = formatDuration(durationMs);
  const avail = width - 2 - Bun.stringWidth(name) - 2 - Bun.stringWidth(duration);
  if (avail < 0) return `${mark} ${c.bold(fitColumns(name, width - 2))}`;
  const argument = mainArgument(start.name, start.input, cwd, Number.POSITIVE_INFINITY);
  const result = shortResult(start.name, end) + (end.truncated ? " (truncated)" : "");
  const share = shareWidth(avail, argument === "" ? 0 : Bun.stringWidth(argument) + 2, Bun.stringWidth(result) + 4);
  const shownArgument = share.argument > 2 ? `  ${fitColumns(argument, share.argument - 2)}` : "";
  const shownResult = share.result > 4 ? c.dim(`  → ${fitColumns(result, share.result - 4)}`) : "";
  return `${mark} ${c.bold(name)}${shownArgument}${c.dim(`  ${duration}`)}${shownResult}`;
}

/** A short result: the first line of an error, a count for reads and searches, the last line of a command. */
export function shortResult(name: string, end: { is_error: boolean; output: string }): string {
  const lines = end.output.split("\n").map(oneLine).filter((line) => line !== "");
  return fitColumns(end.is_error ? (lines[0] ?? "failed") : successSummary(name, lines), MAX_RESULT);
}

/** "0.3s" under ten seconds, "12s" under a minute, "2m05s" under an hour, then "1h02m". */
export function formatDuration(ms: number): string {
  const safe = Math.max(0, ms);
  if (safe < 9_950) return `${(safe / 1000).toFixed(1)}s`;
  const seconds = Math.round(safe / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${pad2(seconds % 60)}s`;
  return `${Math.floor(minutes / 60)}h${pad2(minutes % 60)}m`;
}

/** `text` cut to at most `max` terminal columns, ending with "…" when cut. */
export function fitColumns(text: string, max: number): string {
  if (Bun.stringWidth(text) <= max) return text;
  if (max < 1) return "";
  let used = 0;
  let kept = "";
  for (const { segment } of (graphemes ??= new Intl.Segmenter()).segment(text)) {
    const w = Bun.stringWidth(segment);
    if (used + w > max - 1) break;
    kept += segment;
    used += w;
  }
  return kept + ELLIPSIS;
}

/** Whitespace runs (newlines included) become one space; other control characters are dropped so they cannot drive the terminal. */
export function oneLine(text: string): string {
  return printable(text.replace(/\s+/g, " ")).trim();
}

function rawArgument(name: string, input: unknown, cwd: string): string {
  const field = (key: string) => stringField(input, key);
  switch (name) {
    case "bash":
      return field("command") ?? fallbackArgument(input);
    case "read":
    case "write":
    case "edit": {
      const path = field("path");
      return path === undefined ? fallbackArgument(input) : displayPath(path, cwd);
    }
    case "list":
      return displayPath(field("path") ?? ".", cwd);
    case "glob":
    case "grep": {
      const pattern = field("pattern") ?? "";
      const path = field("path");
      return path === undefined ? pattern : `${pattern} in ${displayPath(path, cwd)}`;
    }
    case "webfetch":
      return field("url") ?? fallbackArgument(input);
    case "task": {
      const [agent, description] = [field("subagent_type"), field("description")];
      return agent && description ? `${agent} · ${description}` : fallbackArgument(input);
    }
    case "todo": {
      const todos = isRecord(input) ? input.todos : undefined;
      return Array.isArray(todos) ? plural(todos.length, "task") : fallbackArgument(input);
    }
    default:
      return fallbackArgument(input);
  }
}

/** An unknown tool's first string field, else its input as compact JSON ("" for nothing at all). */
function fallbackArgument(input: unknown): string {
  if (input === undefined || input === null) return "";
  if (typeof input === "string") return input;
  if (isRecord(input)) {
    const first = Object.values(input).find((value): value is string => typeof value === "string");
    if (first !== undefined) return first;
    if (Object.keys(input).length === 0) return "";
  }
  try {
    return JSON.stringify(input) ?? "";
  } catch {
    return "";
  }
}

/** Inside the working directory a path is shown relative to it; elsewhere as given. */
function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path;
  return rel;
}

function successSummary(name: string, lines: string[]): string {
  switch (name) {
    case "read":
      return readSummary(lines);
    case "bash":
      return lines.length === 0 ? "no output" : `${lines.at(-1)}${lines.length > 1 ? ` (+${plural(lines.length - 1, "line")})` : ""}`;
    case "edit":
      return /: (replaced .+?)\.?$/.exec(lines[0] ?? "")?.[1] ?? lines[0] ?? "edited";
    case "write":
      // "Wrote 3 lines (40 bytes) to /abs/path: created a new file." without the path the line already shows.
      return (lines[0] ?? "written").replace(/^(Wrote \d+ lines? \(\d+ bytes\)) to .*: ([^:]*)$/, "$1: $2");
    case "glob":
      return searchSummary(lines, () => "file");
    case "grep":
      return searchSummary(lines, (hits) => (hits.every((hit) => /:\d+:/.test(hit)) ? "matching line" : "file"));
    case "list":
      return listSummary(lines);
    case "todo":
      return (lines.at(-1) ?? "no tasks").replace(/^\((.*)\)$/, "$1");
    case "task":
      // the usage line the task tool ends with: "(explore on MODEL: 2 turns, ...)"
      return (lines.at(-1) ?? "done").replace(/^\((.*)\)$/, "$1");
    default:
      return lines[0] ?? "no output";
  }
}

/** read numbers each line "     12\t…"; anything else (an empty file, an image) says itself. */
function readSummary(lines: string[]): string {
  const numbered = lines.filter((line) => /^\d+ /.test(line) || /^\d+$/.test(line)).length;
  if (numbered > 0) return plural(numbered, "line");
  if (/ is empty\.$/.test(lines[0] ?? "")) return "empty file";
  return lines[0] ?? "no output";
}

/** glob and grep list one hit a line and end with "(N more … not shown; …)" when they stopped early. */
function searchSummary(lines: string[], unit: (hits: string[]) => string): string {
  const first = lines[0] ?? "";
  if (lines.length === 0 || /^No (files match|matches for)\b/.test(first)) return "no matches";
  const more = /^\((\d+) more\b.*not shown/.exec(lines.at(-1) ?? "");
  const hits = more ? lines.slice(0, -1) : lines;
  return plural(hits.length + Number(more?.[1] ?? 0), unit(hits));
}

/** list prints its root folder, the tree, and possibly "(empty)" or a "(cut at …)" note. */
function listSummary(lines: string[]): string {
  const entries = lines.slice(1).filter((line) => line !== "(empty)" && !/^\(cut at \d+/.test(line));
  const cut = lines.some((line) => /^\(cut at \d+/.test(line));
  return `${plural(entries.length, "entry", "entries")}${cut ? " (cut)" : ""}`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Columns for the argument and the result (each including its separator). When both do not fit the
 * result keeps at least 40%; on a narrow terminal the result wins, as the argument was on the running line.
 */
function shareWidth(avail: number, argument: number, result: number): { argument: number; result: number } {
  if (argument + result <= avail) return { argument, result };
  let forResult = Math.min(result, Math.max(avail - argument, Math.floor(avail * 0.4)));
  if (forResult < Math.min(result, 10)) forResult = Math.min(result, avail);
  const forArgument = avail - forResult;
  // A sliver of the argument says nothing.
  if (forArgument < Math.min(argument, 8)) return { argument: 0, result: Math.min(result, avail) };
  return { argument: forArgument, result: forResult };
}

function stringField(input: unknown, key: string): string | undefined {
  if (!isRecord(input)) return undefined;
  const value = input[key];
  return typeof value === "string" ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

/** Calls that are rein's own plumbing (loading deferred tools): not shown as progress, unless they fail. */
export function isPlumbing(name: string): boolean {
  return name === "load_tools";
}
