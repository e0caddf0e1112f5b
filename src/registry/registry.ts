// The tools a session offers: the built-ins, then user tools (~/.config/rein/tools/*.ts) and, in
// a trusted workspace, project tools (.rein/tools/*.ts). Tool folders are checked before every
// model turn; when any file in them changed (a tool or a file it imports), they are loaded again.
// Other sources (MCP servers) add theirs after those, asked before every turn too; a source's tool
// whose name is taken is left out.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "../sdk.ts";
import { FolderFingerprints } from "./fingerprint.ts";
import { ImportChecker } from "./import-check.ts";
import { loadToolFile, type LoadError, type LoadedTool, type ToolSource } from "./load-tool-file.ts";
import { registerToolModules } from "./virtual-modules.ts";

export type ToolDir = { dir: string; source: "user" | "project" };

/** Tools from elsewhere than files (an MCP server): asked for its list before every turn. */
export type ToolProvider = {
  source: Exclude<ToolSource, "built-in" | "user" | "project">;
  tools: () => Tool[] | Promise<Tool[]>;
};
export type { LoadError, LoadedTool, ToolSource };

const TOOL_FILE = /\.(ts|mts|js|mjs)$/;
const IMPORT_TIMEOUT_MS = 10_000;

export class ToolRegistry {
  private signature = "";
  /** each folder's files (path:size:mtime), from the last refresh */
  private folders: string[][] = [];
  private readonly fingerprints = new FolderFingerprints();
  private readonly checker: ImportChecker;
  private version = 0;
  private loaded: LoadedTool[] = [];
  private failures: LoadError[] = [];
  private readonly providers: ToolProvider[] = [];

  constructor(
    private readonly builtins: readonly Tool[],
    private readonly dirs: readonly ToolDir[],
    /** told after each load that had failures, so a front end can show them */
    private readonly onErrors?: (errors: readonly LoadError[]) => void,
    /** how long one tool file's import may take (REIN_TOOL_IMPORT_TIMEOUT_MS) */
    private readonly importTimeoutMs = importTimeout(process.env),
  ) {
    this.checker = new ImportChecker(importTimeoutMs);
  }

  /** The tools for the next turn, reloading the tool folders first if anything in them changed. */
  async tools(): Promise<Tool[]> {
    return (await this.list()).tools.map((l) => l.tool);
  }

  /** Adds a source of tools (after the built-ins and tool files; the first of a name wins). */
  addSource(provider: ToolProvider): void {
    this.providers.push(provider);
  }

  /** Loads the tool folders again when their files changed; true when it did. */
  async refresh(): Promise<boolean> {
    const folders = this.dirs.map((d) => this.fingerprints.of(d.dir));
    const signature = folders.map((parts) => parts.join("|")).join("\n");
    if (signature === this.signature) return false;
    this.signature = signature;
    this.folders = folders;
    await this.load();
    return true;
  }

  /** Every tool with where it came from, and the files that failed to load. */
  async list(): Promise<{ tools: LoadedTool[]; errors: LoadError[] }> {
    await this.refresh();
    const tools: LoadedTool[] = [...this.builtins.map((tool) => ({ tool, source: "built-in" as const })), ...this.loaded];
    if (this.providers.length > 0) tools.push(...(await this.provided(new Set(tools.map((t) => t.tool.name)))));
    return { tools, errors: [...this.failures] };
  }

  private async provided(taken: Set<string>): Promise<LoadedTool[]> {
    const out: LoadedTool[] = [];
    for (const provider of this.providers) {
      for (const tool of await provider.tools()) {
        if (taken.has(tool.name)) continue;
        taken.add(tool.name);
        out.push({ tool, source: provider.source });
      }
    }
    return out;
  }

  /** The tools of tool files as the last load left them: name -> file. */
  fileTools(): ReadonlyMap<string, string> {
    return new Map(this.loaded.flatMap((l) => (l.file ? [[l.tool.name, l.file] as const] : [])));
  }

  errors(): readonly LoadError[] {
    return this.failures;
  }

  private async load(): Promise<void> {
    const version = ++this.version;
    const taken = new Map<string, string>(this.builtins.map((t) => [t.name, "a built-in tool"]));
    const loaded: LoadedTool[] = [];
    const failures: LoadError[] = [];
    for (const [i, { dir, source }] of this.dirs.entries()) {
      const files = toolFiles(dir);
      if (files.length === 0) continue;
      registerToolModules();
      forgetModules(dir);
      const helpers = (this.folders[i] ?? []).filter((part) => !files.some((file) => part.startsWith(`${file}:`))).join("|");
      const { hung } = await this.checker.check(files, helpers);
      for (const file of files) {
        if (hung.has(file)) {
          failures.push({ file, reason: hungReason(this.importTimeoutMs) });
          continue;
        }
        const result = await loadToolFile(file, version);
        if ("reason" in result) {
          failures.push(result);
          continue;
        }
        const owner = taken.get(result.name);
        if (owner) {
          failures.push({ file, reason: `the name "${result.name}" is already used by ${owner}; rename this tool` });
          continue;
        }
        taken.set(result.name, file);
        loaded.push({ tool: result, source, file });
      }
    }
    this.loaded = loaded;
    this.failures = failures;
    if (failures.length > 0) this.onErrors?.(failures);
  }
}

function importTimeout(env: NodeJS.ProcessEnv): number {
  const value = Number(env.REIN_TOOL_IMPORT_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : IMPORT_TIMEOUT_MS;
}

function hungReason(ms: number): string {
  return `importing it did not finish within ${ms / 1000} s, so it was not loaded: look for a loop or a wait at its top level (or in a file it imports)`;
}

/** The tool files of a folder: its top-level .ts/.js files (files in subfolders are helpers they import). */
function toolFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && TOOL_FILE.test(e.name) && !e.name.endsWith(".d.ts"))
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

/** Drops the folder's modules from the module cache so a reload sees changed relative imports too. */
function forgetModules(dir: string): void {
  const cache = require.cache as Record<string, unknown>;
  for (const key of Object.keys(cache)) if (key.startsWith(dir)) delete cache[key];
}
