// The prompts typed in the terminal, kept across runs (one JSON string per line, the last 500).
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { readOwnText } from "../../sdk/own-file.ts";

const KEEP = 500;
/** a longer prompt (a big paste) is not worth recalling with the arrow keys */
const LONGEST = 10_000;
/** the folders made in this run: one mkdir per run, not one per prompt */
const made = new Set<string>();

export function loadHistory(file: string): string[] {
  let text: string;
  try {
    text = readOwnText(file);
  } catch {
    return [];
  }
  const lines = text.split("\n");
  const entries: string[] = [];
  for (const line of lines.slice(-KEEP - 1)) {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "string") entries.push(value);
    } catch {
      // a torn or foreign line: skipped
    }
  }
  const kept = entries.slice(-KEEP);
  // The file only grows between loads: at twice what is kept, it is rewritten with what is kept.
  if (lines.length > 2 * KEEP) rewrite(file, kept);
  return kept;
}

function rewrite(file: string, entries: readonly string[]): void {
  try {
    const next = `${file}.${process.pid}.tmp`;
    writeFileSync(next, entries.map((e) => `${JSON.stringify(e)}\n`).join(""), { mode: 0o600 });
    renameSync(next, file);
  } catch {
    // a read-only home: the history stays as it is
  }
}

export function appendHistory(file: string, prompt: string): void {
  if (prompt.length > LONGEST) return;
  try {
    const dir = dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    appendFileSync(file, `${JSON.stringify(prompt)}\n`, { mode: 0o600 });
  } catch {
    // a full disk or a read-only home: the history is a convenience, the session is saved elsewhere
  }
}
