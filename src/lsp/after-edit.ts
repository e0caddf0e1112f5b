// Diagnostics after a change: when `edit` or `write` changed a file a language server takes (or a
// `bash` command changed a file a server has open), the server is told the new text and its errors
// for that file, and the new errors of the other open files that depend on it, go beside the
// call's result. Nothing is added when the file is clean; a server that does not answer in time
// gives one note instead of a wait.
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AfterToolCall, ToolCallDone } from "../agent/types.ts";
import { diagnosticKey, diagnosticLines, isError, shownPath, type FileDiagnostics } from "./diagnostics.ts";
import type { LspHub } from "./hub.ts";

const FILE_TOOLS = new Set(["edit", "write", "multiedit"]);

export type AfterEdit = (call: ToolCallDone, hub: () => Promise<LspHub>, handles: (file: string) => boolean) => Promise<AfterToolCall | undefined>;

export function afterEdit(root: string, cwd: string, waitMs: number): AfterEdit {
  const said = new Set<string>();
  return async (call, hub, handles) => {
    let files: string[] = [];
    if (FILE_TOOLS.has(call.name)) {
      const path = (call.input as { path?: unknown; file_path?: unknown } | null)?.path ?? (call.input as { file_path?: unknown } | null)?.file_path;
      if (typeof path !== "string" || !path) return undefined;
      const file = isAbsolute(path) ? path : resolve(cwd, path);
      if (!handles(file)) return undefined;
      files = [file];
    } else if (call.name === "bash") {
      files = await (await hub()).changedOnDisk();
    }
    if (!files.length) return undefined;
    const servers = await hub();
    const deadline = Date.now() + waitMs;
    const notes: string[] = [];
    const reports: FileDiagnostics[] = [];
    for (const file of files) {
      const got = await servers.clientFor(file, deadline);
      if (!got) continue;
      if ("problem" in got) {
        if (!said.has(got.name)) notes.push(`rein: the language server "${got.name}" is not running: ${got.problem}. Diagnostics for its files are not shown.`);
        said.add(got.name);
        continue;
      }
      const { client, languageId } = got;
      const before = new Set([...servers.openErrors(client, file).entries()].flatMap(([uri, list]) => list.map((d) => `${uri} ${diagnosticKey(d)}`)));
      let synced;
      try {
        synced = await servers.sync(client, file, languageId);
      } catch {
        continue; // the file is gone or unreadable: the tool's own result says what happened
      }
      const diagnostics = await client.diagnostics(file, synced.version, synced.since, Math.max(0, deadline - Date.now()));
      if (!diagnostics) {
        notes.push(`rein: the language server "${got.client.name}" did not report diagnostics for ${shownPath(pathToFileURL(file).href, root)} within ${Math.round(waitMs / 1000)} s; none are shown.`);
        continue;
      }
      const errors = diagnostics.filter(isError);
      if (errors.length) reports.push({ uri: pathToFileURL(file).href, diagnostics: errors });
      for (const [uri, list] of servers.openErrors(client, file)) {
        const fresh = list.filter((d) => !before.has(`${uri} ${diagnosticKey(d)}`));
        if (fresh.length && !files.some((f) => pathToFileURL(f).href === uri)) reports.push({ uri, diagnostics: fresh });
      }
    }
    const lines = diagnosticLines(reports, root);
    const text = [
      ...(lines.length ? [`rein: the language server reports ${errorCount(reports)} after this change:`, ...lines] : []),
      ...notes,
    ].join("\n");
    return text ? { context: text } : undefined;
  };
}

function errorCount(reports: readonly FileDiagnostics[]): string {
  const n = reports.reduce((sum, r) => sum + r.diagnostics.length, 0);
  return n === 1 ? "1 error" : `${n} errors`;
}
