// OpenCode's config files as rein reads them: the user's `~/.config/opencode/opencode.json(c)`, the
// project's `opencode.json(c)` in each folder from the project root down to the working directory,
// then the file `OPENCODE_CONFIG` names; JSONC (comments, trailing commas). `permission`, `agent`,
// `mcp`, `model` and `tools` become rein's; what rein does not use is listed for `rein doctor`.
// As with Claude Code's files, a repository's deny and ask apply untrusted, its allow, model and
// agents' loosening only in a trusted workspace. What is wrong is a warning, never a failed start.
import { globSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { readOwnText } from "../sdk/own-file.ts";
import { optionalJsonObject } from "./optional-json.ts";
import { noOpencodeConfig, opencodeFiles } from "./foreign-files.ts";

export { opencodeFiles } from "./foreign-files.ts";
import type { ClaudeFileReport } from "./claude-settings.ts";
import type { ProviderEntry } from "./schema.ts";
import type { RuleAction, WrittenRule } from "../permission/rule-syntax.ts";
import { reinToolName, toolPermission } from "../permission/tool-names.ts";

type Env = Record<string, string | undefined>;
type Sourced = WrittenRule & { source: string };

export type OpencodeConfig = {
  rules: { user: Sourced[]; project: Sourced[] };
  model: { user?: string; project?: string };
  /** agent files made from `agent` entries, for the agents loader (format opencode) */
  agents: { path: string; id: string; text: string; project: boolean }[];
  /** `mcp` entries in Claude Code's entry format, by file */
  mcpServers: { file: string; scope: "user" | "project"; servers: Record<string, unknown> }[];
  /** `lsp` entries (OpenCode's shape; src/lsp/config.ts reads it), by file */
  lsp: { file: string; scope: "user" | "project"; servers: Record<string, unknown> }[];
  /** `provider` entries in rein's `providers` shape (a project's may describe models only) */
  providers: (ProviderEntry & { name: string; source: string })[];
  /** `instructions` (files and globs) as absolute paths, by scope: more instruction files */
  instructions: { path: string; scope: "user" | "project" }[];
  /** `command` entries as custom commands (a subtask without an agent goes to general) */
  commands: OpencodeCommand[];
  files: ClaudeFileReport[];
  warnings: string[];
};

const APPLIED = new Set(["$schema", "permission", "agent", "mcp", "model", "tools", "lsp", "command", "instructions", "provider"]);
const PERMISSIONS: Readonly<Record<string, string>> = { edit: "edit", bash: "bash", webfetch: "webfetch", websearch: "websearch", external_directory: "external_directory", read: "read", list: "read", glob: "read", grep: "read", task: "task", skill: "skill" };
const PATHS = new Set(["edit", "read", "external_directory"]);

export type OpencodeCommand = { name: string; description: string; source: "user" | "project"; file: string; template: string; model?: string; agent?: string };

export function readOpencodeConfig(opts: { cwd: string; projectRoot: string; home: string; env: Env; trusted: boolean }): OpencodeConfig {
  const out = noOpencodeConfig();
  for (const [file, scope] of opencodeFiles(opts)) {
    const json = readFile(file, out.warnings, file === resolve(opts.cwd, opts.env.OPENCODE_CONFIG ?? "\0"));
    if (json) applyFile(json, file, scope, opts, out);
  }
  return out;
}

function applyFile(json: Record<string, unknown>, file: string, scope: "user" | "project", opts: { projectRoot: string; home: string; trusted: boolean }, out: OpencodeConfig): void {
  const report: ClaudeFileReport = { file, scope, applied: [], ignored: [] };
  out.files.push(report);
  const loosens = scope === "user" || opts.trusted;
  const untrusted = (what: string) => {
    report.ignored.push(`${what}: the workspace is not trusted (run with --trust, or answer the trust question, to apply it)`);
    out.warnings.push(`ignored ${what} from ${file}: an untrusted workspace cannot loosen its own permissions or settings (run with --trust to accept it)`);
  };
  for (const key of Object.keys(json)) if (!APPLIED.has(key)) report.ignored.push(`${key}: rein does not read it from OpenCode's config`);
  const rules = [...permissionRules(json.permission, file, opts, report), ...toolRules(json.tools, file)];
  const kept = loosens ? rules : rules.filter((r) => r.action !== "allow");
  if (kept.length) report.applied.push(`permission/tools: ${kept.length} rein rule${kept.length === 1 ? "" : "s"}`);
  if (kept.length < rules.length) untrusted(`permission allow (${rules.length - kept.length} rule${rules.length - kept.length === 1 ? "" : "s"})`);
  out.rules[scope].push(...kept);
  if (typeof json.model === "string" && json.model.trim()) {
    if (loosens) {
      out.model[scope] = json.model.trim();
      report.applied.push(`model: ${json.model.trim()}`);
    } else untrusted(`model "${json.model}"`);
  }
  const agents = isRecord(json.agent) ? Object.entries(json.agent) : [];
  for (const [name, value] of agents) {
    if (!isRecord(value)) {
      out.warnings.push(`${file}: agent "${name}" is not an object; skipped`);
      continue;
    }
    out.agents.push({ ...agentFile(name, value, file), project: scope === "project" });
  }
  if (agents.length) report.applied.push(`agent: ${agents.map(([name]) => name).join(", ")}`);
  const commands = isRecord(json.command) ? Object.entries(json.command) : [];
  for (const [name, value] of commands) {
    if (!isRecord(value) || typeof value.template !== "string" || !/^[A-Za-z0-9_][\w.:-]*$/.test(name)) {
      out.warnings.push(`${file}: command "${name}" needs a name of letters, digits, _ - . and a "template" string; skipped`);
      continue;
    }
    const agent = typeof value.agent === "string" && value.agent.trim() ? value.agent.trim() : value.subtask === true ? "general" : undefined;
    out.commands.push({
      name,
      description: typeof value.description === "string" ? value.description : value.template.split("\n")[0]!.slice(0, 60),
      source: scope,
      file: `${file} (command ${name})`,
      template: fileRef(value.template, dirname(file)),
      ...(typeof value.model === "string" && value.model.trim() ? { model: value.model.trim() } : {}),
      ...(agent ? { agent } : {}),
    });
  }
  if (commands.length) report.applied.push(`command: ${commands.map(([name]) => name).join(", ")}`);
  const listed = Array.isArray(json.instructions) ? json.instructions.filter((i): i is string => typeof i === "string" && i.trim() !== "") : [];
  const found = listed.flatMap((pattern) => instructionPaths(pattern, dirname(file), opts.home));
  out.instructions.push(...found.map((path) => ({ path, scope })));
  if (listed.length) report.applied.push(`instructions: ${found.length} file${found.length === 1 ? "" : "s"} (${listed.join(", ")})`);
  const providers = isRecord(json.provider) ? Object.entries(json.provider) : [];
  for (const [name, value] of providers) {
    const entry = isRecord(value) ? providerEntry(name, value, file, scope, report) : undefined;
    if (entry) out.providers.push({ ...entry, name, source: file });
  }
  if (out.providers.some((p) => p.source === file)) report.applied.push(`provider: ${out.providers.filter((p) => p.source === file).map((p) => p.name).join(", ")}`);
  const servers = isRecord(json.mcp) ? mcpEntries(json.mcp, file, out.warnings) : {};
  if (Object.keys(servers).length) {
    out.mcpServers.push({ file, scope, servers });
    report.applied.push(`mcp: ${Object.keys(servers).join(", ")}${scope === "project" && !opts.trusted ? " (started only in a trusted workspace)" : ""}`);
  }
  // `"lsp": false` turns OpenCode's built-in servers off; rein has none built in, so it means nothing here.
  if (isRecord(json.lsp) && Object.keys(json.lsp).length) {
    out.lsp.push({ file, scope, servers: json.lsp });
    report.applied.push(`lsp: ${Object.keys(json.lsp).join(", ")}${scope === "project" && !opts.trusted ? " (started only in a trusted workspace)" : ""}`);
  }
}

/** `"permission": {"edit": "ask", "bash": {"git *": "allow", "*": "ask"}}`: the last matching pattern wins, as in rein. */
function permissionRules(value: unknown, file: string, opts: { projectRoot: string; home: string }, report: ClaudeFileReport): Sourced[] {
  if (!isRecord(value)) return [];
  const rules: Sourced[] = [];
  for (const [name, setting] of Object.entries(value)) {
    const permission = PERMISSIONS[name];
    if (!permission) {
      report.ignored.push(`permission.${name}: rein has no such permission${name === "doom_loop" ? " (it has no repeated-call check to ask about)" : ""}`);
      continue;
    }
    const entries = typeof setting === "string" ? [["*", setting] as const] : isRecord(setting) ? Object.entries(setting) : [];
    for (const [pattern, action] of entries) {
      if (action !== "allow" && action !== "ask" && action !== "deny") {
        report.ignored.push(`permission.${name}.${pattern}: ${JSON.stringify(action)} is none of allow, ask, deny`);
        continue;
      }
      const written = PATHS.has(permission) && pattern !== "*" ? pathOf(pattern, opts) : pattern;
      rules.push({ permission, pattern: written, action: action as RuleAction, source: `${file} (permission.${name})` });
    }
  }
  return rules;
}

/** `"tools": {"bash": false}`: the tool is denied (and so not offered). */
function toolRules(value: unknown, file: string): Sourced[] {
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([name, on]) =>
    on === false ? [{ permission: name.startsWith("mcp") ? name.replace(/^mcp_/, "mcp__") : toolPermission(reinToolName(name)), pattern: "*", action: "deny" as const, source: `${file} (tools.${name})` }] : [],
  );
}

function pathOf(pattern: string, opts: { projectRoot: string; home: string }): string {
  if (pattern.startsWith("~/")) return join(opts.home, pattern.slice(2));
  return isAbsolute(pattern) ? pattern : `${opts.projectRoot}/${pattern.replace(/^\.\//, "")}`;
}

/** An `agent` entry as an OpenCode agent file: its fields as front matter (JSON is YAML), `prompt` (or `{file:...}`) as the body. */
function agentFile(name: string, value: Record<string, unknown>, file: string): { path: string; id: string; text: string } {
  const { prompt, ...fields } = value;
  const body = typeof prompt === "string" ? fileRef(prompt, dirname(file)) : "";
  const front = Object.entries(fields).map(([key, field]) => `${key}: ${JSON.stringify(field)}`);
  return { path: `${file} (agent ${name})`, id: name, text: `---\n${front.join("\n")}\n---\n${body}\n` };
}

/**
 * `{"npm": "@ai-sdk/openai-compatible", "options": {"baseURL", "apiKey": "{env:KEY}", "headers"}, "models": {"id": {"limit": {"context", "output"}}}}`
 * as a rein provider. Endpoints, keys and headers only from the user's files (as rein's own config).
 */
function providerEntry(name: string, value: Record<string, unknown>, file: string, scope: "user" | "project", report: ClaudeFileReport): ProviderEntry | undefined {
  if (!/^[a-z0-9][a-z0-9_.-]*$/.test(name)) {
    report.ignored.push(`provider.${name}: a provider name is lower-case letters, digits, . _ -`);
    return undefined;
  }
  const options = isRecord(value.options) ? value.options : {};
  const models: NonNullable<ProviderEntry["models"]> = {};
  for (const [id, model] of Object.entries(isRecord(value.models) ? value.models : {})) {
    const limit = isRecord(model) && isRecord(model.limit) ? model.limit : {};
    models[id] = {
      ...(typeof limit.context === "number" && limit.context > 0 ? { window: Math.floor(limit.context) } : {}),
      ...(typeof limit.output === "number" && limit.output > 0 ? { maxOutput: Math.floor(limit.output) } : {}),
    };
  }
  const endpoint = {
    ...(typeof value.npm === "string" ? { api: value.npm === "@ai-sdk/anthropic" ? ("anthropic" as const) : ("openai-chat" as const) } : {}),
    ...(typeof options.baseURL === "string" ? { baseURL: options.baseURL } : {}),
    ...(typeof options.apiKey === "string" ? { apiKey: options.apiKey.replace(/^\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/, "env:$1") } : {}),
    ...(isRecord(options.headers) ? { headers: Object.fromEntries(Object.entries(options.headers).filter((e): e is [string, string] => typeof e[1] === "string")) } : {}),
  };
  if (scope === "project" && Object.keys(endpoint).length) {
    report.ignored.push(`provider.${name}: a repository's file may describe models, never a provider's endpoint, key or headers (a repository could send your prompts elsewhere); set them in ~/.config/opencode/opencode.json`);
    return Object.keys(models).length ? { models } : undefined;
  }
  return { ...endpoint, ...(Object.keys(models).length ? { models } : {}) };
}

/** A file or a glob, relative to the config file's folder (`~/` is the home folder). */
function instructionPaths(pattern: string, dir: string, home: string): string[] {
  const written = pattern.startsWith("~/") ? join(home, pattern.slice(2)) : pattern;
  if (!/[*?[{]/.test(written)) return [resolve(dir, written)];
  try {
    return globSync(written, { cwd: dir }).map((path) => resolve(dir, path)).sort();
  } catch {
    return [];
  }
}

/** OpenCode's `{file:./prompt.txt}`: the file's text, relative to the config file. */
function fileRef(text: string, dir: string): string {
  const ref = /^\{file:(.+)\}$/.exec(text.trim());
  if (!ref) return text;
  try {
    return readOwnText(resolve(dir, ref[1]!.trim()));
  } catch {
    return text;
  }
}

/** OpenCode's `{"type": "local", "command": [...], "environment": {...}}` and `{"type": "remote", "url", "headers"}`. */
function mcpEntries(mcp: Record<string, unknown>, file: string, warnings: string[]): Record<string, unknown> {
  const servers: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(mcp)) {
    if (!isRecord(entry) || entry.enabled === false) continue;
    if (entry.type === "remote" && typeof entry.url === "string") servers[name] = { type: "http", url: entry.url, ...(isRecord(entry.headers) ? { headers: entry.headers } : {}) };
    else if (Array.isArray(entry.command) && typeof entry.command[0] === "string") {
      servers[name] = { command: entry.command[0], args: entry.command.slice(1), ...(isRecord(entry.environment) ? { env: entry.environment } : {}) };
    } else warnings.push(`${file}: mcp "${name}" is neither {"type": "local", "command": [...]} nor {"type": "remote", "url": ...}; skipped`);
  }
  return servers;
}

function readFile(file: string, warnings: string[], required: boolean): Record<string, unknown> | undefined {
  return optionalJsonObject(file, warnings, "its settings were not loaded", { required, jsonc: true });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
