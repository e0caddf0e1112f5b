// Language servers as Claude Code's `.lsp.json` describes them (also rein's config key `lsp` and a
// plugin manifest's `lspServers`): `{NAME: {command, args, extensionToLanguage, env,
// initializationOptions, settings, startupTimeout}}`. OpenCode's `lsp` section
// (`{NAME: {command: [..], extensions: [..]}}`) is read into the same shape. Each entry is checked
// here; a bad one is a problem naming the field, never a crash.
import { extname } from "node:path";

export type LspEntry = {
  command: string;
  args: string[];
  /** ".ts" -> "typescript": which files the server takes, and the languageId they are opened with */
  extensionToLanguage: Record<string, string>;
  env?: Record<string, string>;
  initializationOptions?: unknown;
  settings?: unknown;
  /** how long the server may take to answer `initialize`, in milliseconds */
  startupTimeout?: number;
  /** run it under the kernel sandbox (as MCP servers' `"sandbox": true`) */
  sandbox?: boolean;
};

export type LspScope = "user" | "project" | "plugin";

export type LspServerConfig = {
  name: string;
  /** the file it came from */
  source: string;
  scope: LspScope;
  entry?: LspEntry;
  problem?: string;
};

export type LspSource = { file: string; scope: LspScope; servers: Record<string, unknown>; env?: Record<string, string> };

/** The servers of every source, nearer sources last (a name defined twice: the nearer one wins, whole). */
export function lspConfigs(sources: readonly LspSource[], trusted: boolean): LspServerConfig[] {
  const byName = new Map<string, LspServerConfig>();
  for (const source of sources) {
    for (const [name, raw] of Object.entries(source.servers)) {
      byName.delete(name);
      const parsed = parseLspEntry(raw, source.env);
      const config: LspServerConfig = { name, source: source.file, scope: source.scope };
      if (typeof parsed === "string") config.problem = parsed;
      else if (source.scope === "project" && !trusted) config.problem = "the workspace is not trusted, so its language servers do not start (run rein --trust once here)";
      else config.entry = parsed;
      byName.set(name, config);
    }
  }
  return [...byName.values()];
}

/** One entry in Claude Code's shape (or OpenCode's), or a sentence saying what is wrong with it. */
export function parseLspEntry(raw: unknown, extraEnv?: Record<string, string>): LspEntry | string {
  if (!isRecord(raw)) return "expected an object with command and extensionToLanguage";
  if (raw.disabled === true) return "it is disabled (\"disabled\": true)";
  if (raw.transport !== undefined && raw.transport !== "stdio") return `transport ${JSON.stringify(raw.transport)} is not supported (only stdio)`;
  // OpenCode: command is the whole line, extensions a list (the language is named after the server).
  const line = Array.isArray(raw.command) ? raw.command : undefined;
  const command = line ? line[0] : raw.command;
  if (typeof command !== "string" || !command.trim()) return "command: expected the server's program, like \"typescript-language-server\"";
  const args = line ? line.slice(1) : (raw.args ?? []);
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) return "args: expected a list of strings";
  const extensionToLanguage = languages(raw);
  if (typeof extensionToLanguage === "string") return extensionToLanguage;
  const env = raw.env ?? raw.environment;
  if (env !== undefined && !(isRecord(env) && Object.values(env).every((value) => typeof value === "string"))) return "env: expected an object of variable names and string values";
  const timeout = raw.startupTimeout;
  if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0)) return "startupTimeout: expected a number of milliseconds";
  const entry: LspEntry = { command, args, extensionToLanguage };
  if (env || extraEnv) entry.env = { ...extraEnv, ...(env as Record<string, string> | undefined) };
  const init = raw.initializationOptions ?? raw.initialization;
  if (init !== undefined) entry.initializationOptions = init;
  if (raw.settings !== undefined) entry.settings = raw.settings;
  if (typeof timeout === "number") entry.startupTimeout = timeout;
  if (raw.sandbox === true) entry.sandbox = true;
  return entry;
}

function languages(raw: Record<string, unknown>): Record<string, string> | string {
  if (raw.extensionToLanguage !== undefined) {
    const map = raw.extensionToLanguage;
    if (!isRecord(map) || !Object.entries(map).every(([ext, lang]) => ext.startsWith(".") && typeof lang === "string")) {
      return 'extensionToLanguage: expected an object like {".ts": "typescript"}';
    }
    return map as Record<string, string>;
  }
  if (Array.isArray(raw.extensions) && raw.extensions.every((e) => typeof e === "string" && e.startsWith("."))) {
    return Object.fromEntries((raw.extensions as string[]).map((ext) => [ext, LANGUAGE_IDS[ext] ?? ext.slice(1)]));
  }
  return 'extensionToLanguage: expected an object like {".ts": "typescript"}';
}

/** LSP's languageIds for OpenCode entries, which list extensions only. */
const LANGUAGE_IDS: Record<string, string> = {
  ".ts": "typescript", ".tsx": "typescriptreact", ".js": "javascript", ".jsx": "javascriptreact", ".mjs": "javascript", ".cjs": "javascript",
  ".mts": "typescript", ".cts": "typescript", ".py": "python", ".rs": "rust", ".go": "go", ".java": "java", ".rb": "ruby", ".c": "c", ".h": "c",
  ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp", ".php": "php", ".lua": "lua", ".swift": "swift", ".kt": "kotlin",
};

/** The server that takes this file, and the languageId it is opened with. */
export function serverFor(configs: readonly LspServerConfig[], file: string): { config: LspServerConfig & { entry: LspEntry }; languageId: string } | undefined {
  const ext = extname(file).toLowerCase();
  if (!ext) return undefined;
  for (const config of configs) {
    const languageId = config.entry?.extensionToLanguage[ext];
    if (languageId) return { config: config as LspServerConfig & { entry: LspEntry }, languageId };
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
