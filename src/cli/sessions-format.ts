// What the sessions subcommands share: one line per session, times in UTC to the minute, durations.
import type { SessionRow } from "../session/store.ts";
import { out } from "../app/output.ts";

export function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/** `ID  LABEL TIME  TITLE  CWD`, the time being the last update or, for a trashed session, when it was trashed. */
export function sessionLine(row: SessionRow, label = ""): string {
  const trashed = row.deleted_at !== null && row.deleted_at !== undefined;
  const when = label ? `${label} ${stamp(trashed ? row.deleted_at! : row.updated_at)}` : stamp(row.updated_at);
  return `${row.id}  ${when}  ${row.title ?? "(untitled)"}  ${row.cwd}`;
}

const UNITS: [string, number][] = [
  ["w", 604_800_000],
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1000],
];

/** 2592000000 -> "30d": the largest unit that divides it (what --older-than accepts). */
export function duration(ms: number): string {
  // 0 divides by every unit: say it in days, as `--older-than 0d` is usually written, not "0w"
  if (ms === 0) return "0d";
  const [unit, size] = UNITS.find(([, size]) => ms % size === 0) ?? ["s", 1000];
  return `${Math.round(ms / size)}${unit}`;
}

export function write(text: string): number {
  out(text);
  return 0;
}
