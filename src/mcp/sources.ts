// Where MCP servers are configured, farthest first: ~/.claude.json's `mcpServers` (user), rein's
// user config, the project's .mcp.json, ~/.claude.json's `projects[<root>].mcpServers` (local, the
// user's own file), rein's project config. The same name in two sources: the nearer one wins,
// whole. rein's own files are read once, by the config loader, which hands their `mcpServers` over;
// other tools' files are read here, and only read. A project source (the repository's files) starts its
// servers only in a trusted workspace, as they run programs. Enabled plugins' servers come first
// (the farthest), already named `plugin:PLUGIN:SERVER`.
import { join } from "node:path";
import type { ServerEntry } from "./config.ts";
import { readOptionalJson } from "../config/optional-json.ts";

type Env = Readonly<Record<string, string | undefined>>;

export type Scope = "user" | "project" | "local";

export type ServerConfig = {
  name: string;
  /** the file it came from */
  source: string;
  scope: Scope;
  /** undefined when the entry cannot be used: `problem` says why */
  entry?: ServerEntry;
  problem?: string;
};

export type SourceOptions = {
  projectRoot: string;
  home: string;
  /** the `mcpServers` of rein's own config files as the config loader read them, user first */
  rein: readonly { file: string; scope: "user" | "project"; servers: Record<string, unknown> }[];
  trusted: boolean;
  env: Env;
  /** enabled plugins' servers, with the file each set came from */
  plugins?: readonly { file: string; servers: Record<string, unknown> }[];
};

type Found = { file: string; scope: Scope; servers: Record<string, unknown> | { problem: string } };

export function serverConfigs(opts: SourceOptions): { servers: ServerConfig[]; warnings: string[] } {
  const claude = join(opts.home, ".claude.json");
  const claudeFile = readOptionalJson(claude);
  const found: Found[] = [
    ...(opts.plugins ?? []).map((p) => ({ file: p.file, scope: "user" as const, servers: p.servers })),
    { file: claude, scope: "user", servers: section(claudeFile, (j) => j.mcpServers) },
    ...opts.rein.filter((r) => r.scope === "user"),
    { file: join(opts.projectRoot, ".mcp.json"), scope: "project", servers: section(readOptionalJson(join(opts.projectRoot, ".mcp.json")), (j) => j.mcpServers) },
    { file: claude, scope: "local", servers: section(claudeFile, (j) => record(j.projects)?.[opts.projectRoot] && record(record(j.projects)![opts.projectRoot])?.mcpServers) },
    ...opts.rein.filter((r) => r.scope === "project"),
  ];
  const byName = new Map<string, ServerConfig>();
  const warnings: string[] = [];
  for (const { file, scope, servers } of found) {
    if ("problem" in servers) {
      warnings.push(`${file}: ${servers.problem}; its MCP servers are not used`);
      continue;
    }
    for (const [name, raw] of Object.entries(servers)) {
      byName.delete(name); // the nearer source is listed last, in its own place
      const parsed = entryParser().parseEntry(raw, opts.env);
      const config: ServerConfig = { name, source: file, scope };
      if ("problem" in parsed) config.problem = parsed.problem;
      else if (scope === "project" && !opts.trusted) config.problem = "the workspace is not trusted, so its servers do not start (run rein --trust once here)";
      else config.entry = parsed;
      byName.set(name, config);
    }
  }
  return { servers: [...byName.values()], warnings };
}

type Json = ReturnType<typeof readOptionalJson>;

/** A missing file configures nothing; a bad one, or a bad section, is one problem for the file. */
function section(json: Json, pick: (json: Record<string, unknown>) => unknown): Record<string, unknown> | { problem: string } {
  if (!json) return {};
  if ("problem" in json) return { problem: json.problem };
  const value = pick(json.json);
  if (value === undefined || value === null) return {};
  return record(value) ?? { problem: "mcpServers is not an object of servers" };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The entry schema (config.ts and its valibot parts) loads with the first server some file names. */
const entryParser = () => require("./config.ts") as typeof import("./config.ts");
