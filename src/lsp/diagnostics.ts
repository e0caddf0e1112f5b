// What the model reads of a language server's diagnostics: errors only, one line each
// (`path:line:col: error TS2322: message`), at most MAX_LINES with "and N more".
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Diagnostic } from "./client.ts";

export const MAX_LINES = 20;

export type FileDiagnostics = { uri: string; diagnostics: readonly Diagnostic[] };

export function diagnosticLines(files: readonly FileDiagnostics[], root: string, max = MAX_LINES): string[] {
  const all = files.flatMap(({ uri, diagnostics }) => diagnostics.map((d) => line(shownPath(uri, root), d)));
  if (all.length <= max) return all;
  return [...all.slice(0, max), `...and ${all.length - max} more`];
}

function line(path: string, d: Diagnostic): string {
  const { line: row, character } = d.range.start;
  const code = d.code !== undefined ? ` ${d.source === "typescript" || d.source === "ts" ? "TS" : ""}${d.code}` : "";
  const message = d.message.split("\n")[0]!.trim();
  return `${path}:${row + 1}:${character + 1}: ${severityName(d.severity)}${code}: ${message}`;
}

function severityName(severity: number | undefined): string {
  return severity === 2 ? "warning" : severity === 3 ? "info" : severity === 4 ? "hint" : "error";
}

export function shownPath(uri: string, root: string): string {
  const path = uri.startsWith("file:") ? fileURLToPath(uri) : uri;
  const rel = relative(root, path);
  return rel && !rel.startsWith("..") ? rel : path;
}

/** A diagnostic's identity for telling new errors from old ones. */
export function diagnosticKey(d: Diagnostic): string {
  return `${d.range.start.line}:${d.range.start.character}:${d.code ?? ""}:${d.message}`;
}

export function isError(d: Diagnostic): boolean {
  return d.severity === undefined || d.severity === 1;
}
