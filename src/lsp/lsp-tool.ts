// The `lsp` tool (Claude Code: `LSP`): asks the language server of a file for a definition,
// references, hover text, the file's symbols, the workspace's symbols or the file's diagnostics.
// Positions are 1-based as the model reads them in `read`'s output; results are paths with line
// numbers. What it touches is a read of the file, under the read rules.
import * as v from "valibot";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { defineTool, type Tool } from "../sdk.ts";
import description from "../../prompts/tools/lsp.txt" with { type: "text" };
import { diagnosticLines, shownPath } from "./diagnostics.ts";
import type { LspHub } from "./hub.ts";

const OPERATIONS = ["definition", "references", "hover", "document_symbols", "workspace_symbols", "diagnostics"] as const;
/** Claude Code's names for the same operations. */
const ALIASES: Record<string, (typeof OPERATIONS)[number]> = {
  goToDefinition: "definition", findReferences: "references", documentSymbol: "document_symbols", workspaceSymbol: "workspace_symbols",
};
const MAX_RESULTS = 100;

type Location = { uri: string; range: { start: { line: number; character: number } } };

export function lspTool(hub: () => Promise<LspHub>, root: string, waitMs: number): Tool {
  return defineTool({
    name: "lsp",
    description,
    input: v.object({
      operation: v.pipe(v.string(), v.check((op) => (OPERATIONS as readonly string[]).includes(op) || op in ALIASES, `expected one of ${OPERATIONS.join(", ")}`)),
      path: v.string(),
      line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      character: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      query: v.optional(v.string()),
    }),
    readOnly: true,
    permissions: ({ path }, { cwd }) => [{ permission: "read", pattern: absolute(path, cwd), always: [absolute(path, cwd)] }],
    async run(input, ctx) {
      const operation = ALIASES[input.operation] ?? (input.operation as (typeof OPERATIONS)[number]);
      const file = absolute(input.path, ctx.cwd);
      const servers = await hub();
      const got = await servers.clientFor(file, Date.now() + waitMs);
      if (!got) return { output: `No language server is configured for ${input.path} (see rein doctor; servers come from the "lsp" config key and plugins' .lsp.json).`, isError: true };
      if ("problem" in got) return { output: `The language server "${got.name}" for ${input.path} is not running: ${got.problem}.`, isError: true };
      const { client, languageId } = got;
      let synced;
      try {
        synced = await servers.sync(client, file, languageId);
      } catch (error) {
        return { output: `Could not read ${input.path}: ${error instanceof Error ? error.message : String(error)}`, isError: true };
      }
      const uri = pathToFileURL(file).href;
      const position = { line: (input.line ?? 1) - 1, character: (input.character ?? 1) - 1 };
      const needsPosition = operation === "definition" || operation === "references" || operation === "hover";
      if (needsPosition && input.line === undefined) return { output: `${operation} needs line and character (1-based, as read shows them).`, isError: true };
      try {
        switch (operation) {
          case "definition":
            return locations(await client.request<Location | Location[] | null>("textDocument/definition", { textDocument: { uri }, position }, waitMs), root, "No definition found.");
          case "references":
            return locations(await client.request<Location[] | null>("textDocument/references", { textDocument: { uri }, position, context: { includeDeclaration: true } }, waitMs), root, "No references found.");
          case "hover":
            return hoverText(await client.request<{ contents: unknown } | null>("textDocument/hover", { textDocument: { uri }, position }, waitMs));
          case "document_symbols":
            return symbols(await client.request<unknown[] | null>("textDocument/documentSymbol", { textDocument: { uri } }, waitMs), root, uri);
          case "workspace_symbols":
            return symbols(await client.request<unknown[] | null>("workspace/symbol", { query: input.query ?? "" }, waitMs), root, uri);
          case "diagnostics": {
            const found = await client.diagnostics(file, synced.version, synced.since, waitMs);
            if (!found) return { output: `The language server did not report diagnostics within ${Math.round(waitMs / 1000)} s.`, isError: true };
            const lines = diagnosticLines([{ uri, diagnostics: found }], root, MAX_RESULTS);
            return lines.length ? lines.join("\n") : `No diagnostics for ${input.path}.`;
          }
        }
      } catch (error) {
        return { output: `The language server could not answer ${operation}: ${error instanceof Error ? error.message : String(error)}`, isError: true };
      }
    },
  });
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

function locations(found: Location | Location[] | null, root: string, none: string): string {
  const list = (Array.isArray(found) ? found : found ? [found] : []).map((l) => ("targetUri" in l ? { uri: (l as { targetUri: string }).targetUri, range: (l as unknown as { targetSelectionRange: Location["range"] }).targetSelectionRange } : l));
  if (!list.length) return none;
  const lines = list.slice(0, MAX_RESULTS).map((l) => `${shownPath(l.uri, root)}:${l.range.start.line + 1}:${l.range.start.character + 1}`);
  return [...lines, ...(list.length > MAX_RESULTS ? [`...and ${list.length - MAX_RESULTS} more`] : [])].join("\n");
}

function hoverText(hover: { contents: unknown } | null): string {
  const text = (part: unknown): string => (typeof part === "string" ? part : part && typeof part === "object" && "value" in part ? String((part as { value: unknown }).value) : "");
  const contents = hover?.contents;
  const shown = Array.isArray(contents) ? contents.map(text).filter(Boolean).join("\n\n") : text(contents);
  return shown.trim() || "No hover information at that position.";
}

const SYMBOL_KINDS = ["", "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"];

type SymbolLike = { name: string; kind: number; range?: Location["range"]; selectionRange?: Location["range"]; location?: Location; children?: SymbolLike[] };

function symbols(found: unknown[] | null, root: string, uri: string): string {
  const lines: string[] = [];
  const walk = (list: SymbolLike[], depth: number) => {
    for (const s of list) {
      if (lines.length >= MAX_RESULTS) return;
      const at = s.location ?? { uri, range: s.selectionRange ?? s.range ?? { start: { line: 0, character: 0 } } };
      lines.push(`${"  ".repeat(depth)}${SYMBOL_KINDS[s.kind] ?? "symbol"} ${s.name} ${shownPath(at.uri, root)}:${at.range.start.line + 1}`);
      if (s.children) walk(s.children, depth + 1);
    }
  };
  walk((found ?? []) as SymbolLike[], 0);
  return lines.length ? lines.join("\n") : "No symbols found.";
}

