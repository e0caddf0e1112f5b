import { homedir } from "node:os";
import { resolve } from "node:path";
import * as v from "valibot";
import { type ClaudeRuleBase, translateClaudeRule } from "./claude-rule.ts";
import type { ClaudeFileReport, ClaudeSettings, ClaudeSettingsOptions } from "./claude-settings.ts";
import { anyExists, claudeSettingsFiles, noClaudeSettings, noOpencodeConfig, opencodeFiles } from "./foreign-files.ts";
import type { OpencodeCommand } from "./opencode-config.ts";
import { toolRuleList } from "../permission/tool-rule.ts";
import { ConfigError } from "./config-error.ts";
import type { HooksConfig } from "./hooks-schema.ts";
import { projectPaths, reinPaths } from "./paths.ts";
import { readConfigFile } from "./read-config-file.ts";
import { type ForeignPermission, readRule, RULE_EXAMPLE, ruleNote, type Rule, type RuleAction } from "./rule.ts";
import {
  ApiKeySchema,
  BaseUrlSchema,
  type ConfigFile,
  MaxCostSchema,
  MaxTurnsSchema,
  ModelSchema,
  type PermissionMode,
  PermissionModeSchema,
  type ProviderEntry,
  SandboxSchema,
  type SandboxSetting,
  ServerTokenSchema,
  type WebSearchConfig,
} from "./schema.ts";

export { ConfigError } from "./config-error.ts";
export { findProjectRoot } from "./find-project-root.ts";
export type { Rule, RuleAction } from "./rule.ts";
export type { PermissionMode, ProviderEntry } from "./schema.ts";

type Env = Record<string, string | undefined>;

export type ResolvedConfig = {
  model: string;
  /** the model the files and environment choose, without the flags: the provider in use for an alias given as a flag */
  configuredModel: string;
  apiKey?: string;
  baseURL?: string;
  maxTurns: number;
  maxTokens?: number;
  /** USD per run (one prompt); unset means no budget */
  maxCost?: number;
  /** how many background workers run at once (config maxWorkers; 4 when unset) */
  maxWorkers?: number;
  /** "tmux": background workers run as rein processes in tmux panes (config teammateMode) */
  teammateMode?: "in-process" | "tmux";
  permissionMode: PermissionMode;
  /** the agent chosen (--agent, then the config files' `agent`); undefined: build, or plan in plan mode */
  agent?: string;
  sandbox: SandboxSetting;
  /** credential-looking environment variables that tools' processes still get (env.passthrough) */
  envPassthrough: string[];
  /**
   * Lowest precedence first. Each source lists its allow rules, then ask, then deny: the last match
   * wins. `tail` holds Claude Code's ask and deny rules (any settings file), which hold over every
   * allow as in Claude Code, followed by rein's own denies again so that no ask softens one.
   */
  rules: { user: Rule[]; project: Rule[]; flags: Rule[]; tail: Rule[] };
  /** Claude Code settings files' `env` (trusted ones): variables for the processes tools start */
  settingsEnv: Record<string, string>;
  /** folders outside the project that count as the workspace (additionalDirectories) */
  directories: string[];
  /** Claude Code's settings files and OpenCode's config files that were read, with what rein applied of each and what not */
  claudeFiles: ClaudeFileReport[];
  /** OpenCode's `agent` entries as agent files for the agents loader */
  opencodeAgents: { path: string; id: string; text: string; project: boolean }[];
  /** OpenCode's `instructions`: more instruction files (a project's are read only inside it, unless trusted) */
  extraInstructions: { path: string; scope: "user" | "project" }[];
  /** OpenCode's `command` entries as custom commands */
  opencodeCommands: OpencodeCommand[];
  server: { token?: string; origins: string[]; hosts: string[] };
  /** The `providers` entries of the config files, user first, each with the file it came from. */
  providers: (ProviderEntry & { name: string; source: string })[];
  /** rules' permissions that are none of rein's: fine once a tool of that name loads, a warning otherwise */
  foreignPermissions: ForeignPermission[];
  /** The `hooks` of rein's config files, user first, with the file each came from (trust is the hooks' business). */
  hooks: { file: string; scope: "user" | "project"; hooks: HooksConfig }[];
  /** `enabledPlugins` of the user and project config files (a project's apply only in a trusted workspace) */
  plugins: { user: Record<string, boolean>; project: Record<string, boolean> };
  /** The `mcpServers` of rein's config files, user first, with the file each came from (trust and checking are the MCP loader's business). */
  mcpServers: { file: string; scope: "user" | "project"; servers: Record<string, unknown> }[];
  /** memory.auto: facts proposed and saved at a session's end; a repository can turn it on only with trust */
  memoryAuto: boolean;
  /** The `lsp` servers of rein's config files, user first (trust and checking are the LSP loader's business). */
  lsp?: { file: string; scope: "user" | "project"; servers: Record<string, unknown> }[];
  /** where websearch searches; a project's applies only with trust (its queries would go to that host) */
  webSearch?: WebSearchConfig;
  /** Config files that were read, user first. */
  sources: string[];
  warnings: string[];
};

export type Overrides = {
  model?: string;
  maxTurns?: number;
  maxCost?: number;
  permissionMode?: PermissionMode;
  agent?: string;
  allow?: string[];
  deny?: string[];
  ask?: string[];
  /** Accept the project config's allow rules and a permissive permissionMode. */
  trust?: boolean;
  /** --sandbox: run every bash command in the kernel sandbox */
  sandbox?: boolean;
  /** Claude Code's --allowedTools and --disallowedTools: rules in its syntax */
  claudeAllow?: string[];
  claudeDeny?: string[];
  /** Claude Code's --settings FILE|JSON and --setting-sources */
  settings?: string;
  settingSources?: string[];
  /** --add-dir: folders outside the project that count as the workspace */
  addDirs?: string[];
};

export type LoadOptions = { cwd: string; projectRoot: string; env: Env; overrides: Overrides; home?: string };

export const CONFIG_DEFAULTS = { model: "claude-sonnet-5-5", maxTurns: 100, permissionMode: "default" } as const;

/** One layer of scalar settings; a later layer wins where it defines a value. */
type Settings = Pick<ConfigFile, "model" | "apiKey" | "baseURL" | "maxTurns" | "maxTokens" | "maxCost" | "maxWorkers" | "teammateMode" | "permissionMode" | "sandbox" | "agent"> & {
  serverToken?: string;
};

/** Defaults < user config < project config < environment < flags. Throws ConfigError. */
export function loadConfig(opts: LoadOptions): ResolvedConfig {
  const userFile = resolve(opts.cwd, reinPaths(opts.env).userConfig);
  const projectFile = projectPaths(resolve(opts.cwd, opts.projectRoot)).config;
  const user = readConfigFile(userFile, { kind: "user" });
  const rawProject = readConfigFile(projectFile, { kind: "project", userConfig: userFile });
  const warnings: string[] = [];
  const project = rawProject && !opts.overrides.trust ? untrusted(rawProject, projectFile, warnings) : rawProject;
  const home = opts.home ?? (opts.env.HOME || homedir());
  const base = { cwd: resolve(opts.cwd), projectRoot: resolve(opts.cwd, opts.projectRoot), home };
  const claudeOptions: ClaudeSettingsOptions = {
    ...base,
    env: opts.env,
    trusted: opts.overrides.trust === true,
    ...(opts.overrides.settings !== undefined ? { flag: opts.overrides.settings } : {}),
    ...(opts.overrides.settingSources ? { sources: opts.overrides.settingSources } : {}),
  };
  // The readers load only when there is something to read (require: loadConfig is synchronous).
  const claude = claudeOptions.flag !== undefined || anyExists(claudeSettingsFiles(claudeOptions)) ? claudeReader().readClaudeSettings(claudeOptions) : noClaudeSettings();
  warnings.push(...claude.warnings);
  const claudeFlags = claudeFlagRules(opts.overrides, { cwd: base.cwd, root: base.projectRoot, home }, warnings);

  // Claude Code's files sit below rein's own at each level; its managed file is above everything.
  const opencodeOptions = { ...base, env: opts.env, trusted: opts.overrides.trust === true };
  // OPENCODE_CONFIG naming a missing file is a warning, which only the reader gives.
  const opencode = opts.env.OPENCODE_CONFIG || anyExists(opencodeFiles(opencodeOptions)) ? opencodeReader().readOpencodeConfig(opencodeOptions) : noOpencodeConfig();
  warnings.push(...opencode.warnings);
  // The files, the environment: what the flags (and the managed file) override.
  const configured: Settings[] = [
    claude.user,
    { model: opencode.model.user },
    { ...user, serverToken: user?.server?.token },
    claude.project,
    { model: opencode.model.project },
    project ?? {},
    fromEnv(opts.env),
  ];
  const layers: Settings[] = [...configured, claude.flag, fromFlags(opts.overrides), claude.managed];
  // A plain loop, not findLast with a callback: a start picks some 30 keys of 10 layers.
  const pick = <K extends keyof Settings>(key: K): Settings[K] => {
    for (let i = layers.length - 1; i >= 0; i--) if (layers[i]![key] !== undefined) return layers[i]![key];
    return undefined;
  };
  const ownRules = { user: fileRules(user), project: projectRules(project, user, !opts.overrides.trust), flags: flagRules(opts.overrides) };
  const rules = {
    user: [...claude.allow.user, ...opencode.rules.user, ...ownRules.user],
    project: [...claude.allow.project, ...withUserDenies(opencode.rules.project, user, !opts.overrides.trust), ...ownRules.project],
    flags: [...claude.allow.flag, ...claudeFlags.allow, ...ownRules.flags],
    tail: claudeTail({ ...claude, denies: [...claude.denies, ...claudeFlags.deny] }, ownRules),
  };

  return {
    model: pick("model") ?? CONFIG_DEFAULTS.model,
    configuredModel: configured.findLast((layer) => layer.model !== undefined)?.model ?? CONFIG_DEFAULTS.model,
    apiKey: pick("apiKey"),
    baseURL: pick("baseURL"),
    maxTurns: pick("maxTurns") ?? CONFIG_DEFAULTS.maxTurns,
    maxTokens: pick("maxTokens"),
    maxCost: pick("maxCost"),
    ...(pick("maxWorkers") ? { maxWorkers: pick("maxWorkers") } : {}),
    ...(pick("teammateMode") ? { teammateMode: pick("teammateMode") } : {}),
    permissionMode: pick("permissionMode") ?? CONFIG_DEFAULTS.permissionMode,
    ...(pick("agent") ? { agent: pick("agent") } : {}),
    // The kernel sandbox: on when asked for; in auto mode by default wherever it is available.
    sandbox: pick("sandbox") ?? ((pick("permissionMode") ?? CONFIG_DEFAULTS.permissionMode) === "auto" ? "auto" : "off"),
    envPassthrough: [...new Set([...(user?.env?.passthrough ?? []), ...(project?.env?.passthrough ?? [])])],
    rules,
    server: { token: pick("serverToken"), origins: user?.server?.origins ?? [], hosts: user?.server?.hosts ?? [] },
    // OpenCode's below rein's own: a rein entry of the same name is merged over it.
    providers: [...opencode.providers, ...providerEntries(user, userFile), ...providerEntries(project, projectFile)],
    hooks: [
      ...(user?.hooks ? [{ file: userFile, scope: "user" as const, hooks: user.hooks as HooksConfig }] : []),
      ...(rawProject?.hooks ? [{ file: projectFile, scope: "project" as const, hooks: rawProject.hooks as HooksConfig }] : []),
    ],
    plugins: { user: user?.enabledPlugins ?? {}, project: rawProject?.enabledPlugins ?? {} },
    mcpServers: [
      ...(user?.mcpServers ? [{ file: userFile, scope: "user" as const, servers: user.mcpServers }] : []),
      ...(rawProject?.mcpServers ? [{ file: projectFile, scope: "project" as const, servers: rawProject.mcpServers }] : []),
      ...opencode.mcpServers,
    ],
    memoryAuto: project?.memory?.auto ?? user?.memory?.auto ?? false,
    ...(user?.lsp || rawProject?.lsp || opencode.lsp.length
      ? {
          lsp: [
            ...opencode.lsp.filter((l) => l.scope === "user"),
            ...(user?.lsp ? [{ file: userFile, scope: "user" as const, servers: user.lsp }] : []),
            ...opencode.lsp.filter((l) => l.scope === "project"),
            ...(rawProject?.lsp ? [{ file: projectFile, scope: "project" as const, servers: rawProject.lsp }] : []),
          ],
        }
      : {}),
    ...webSearchOf(user, rawProject, projectFile, opts.overrides.trust === true, warnings),
    sources: [user && userFile, rawProject && projectFile].filter((file) => file !== undefined),
    settingsEnv: claude.env,
    directories: [...claude.directories, ...(opts.overrides.addDirs ?? []).map((dir) => resolve(opts.cwd, dir.replace(/^~(?=\/|$)/, home)))],
    claudeFiles: [...claude.files, ...opencode.files],
    opencodeAgents: opencode.agents,
    opencodeCommands: opencode.commands,
    extraInstructions: opencode.instructions,
    ...ruleNotes([[userFile, ownRules.user], [projectFile, fileRules(project)], ["a --allow, --deny or --ask flag", rules.flags]], warnings),
  };
}

/** --allowedTools and --disallowedTools, each entry a list (`"Bash(git:*) Edit"`, `"Read,Grep"`) of Claude Code's rules. */
function claudeFlagRules(overrides: Overrides, base: ClaudeRuleBase, warnings: string[]): { allow: Rule[]; deny: (Rule & { source: string })[] } {
  const read = (values: string[] | undefined, action: "allow" | "deny", flag: string) =>
    (values ?? []).flatMap((value) => toolRuleList(value) ?? []).flatMap((text) => {
      const rules = translateClaudeRule(text, action, base);
      if (typeof rules === "string") {
        warnings.push(`${flag} ${JSON.stringify(text)} was not applied: ${rules}`);
        return [];
      }
      return rules.map((rule) => ({ ...rule, source: `${flag} ${text}` }));
    });
  return { allow: read(overrides.claudeAllow, "allow", "--allowedTools"), deny: read(overrides.claudeDeny, "deny", "--disallowedTools") };
}

/** Claude Code's asks and denies hold over any allow (its order is deny, ask, allow); rein's own denies stay above its asks. */
const claudeReader = () => require("./claude-settings.ts") as typeof import("./claude-settings.ts");
const opencodeReader = () => require("./opencode-config.ts") as typeof import("./opencode-config.ts");

function claudeTail(claude: ClaudeSettings, own: { user: Rule[]; project: Rule[]; flags: Rule[] }): (Rule & { source: string })[] {
  if (claude.asks.length === 0 && claude.denies.length === 0) return [];
  // A rule that names its own source keeps it: the user's denies repeated among an untrusted project's rules are still the user's.
  const denies = (source: string, list: readonly (Rule & { source?: string })[]) => list.filter((rule) => rule.action === "deny").map((rule) => ({ ...rule, source: rule.source ?? source }));
  return [...claude.asks, ...denies("user config", own.user), ...denies("project config", own.project), ...denies("command line", own.flags), ...claude.denies];
}

function webSearchOf(user: ConfigFile | undefined, project: ConfigFile | undefined, file: string, trusted: boolean, warnings: string[]): { webSearch?: WebSearchConfig } {
  if (project?.webSearch && !trusted) {
    warnings.push(`ignored webSearch from ${file}: an untrusted workspace cannot choose where your searches are sent (run with --trust to accept it)`);
  }
  const chosen = (trusted ? project?.webSearch : undefined) ?? user?.webSearch;
  return chosen ? { webSearch: chosen } : {};
}

function providerEntries(config: ConfigFile | undefined, file: string): (ProviderEntry & { name: string; source: string })[] {
  return Object.entries(config?.providers ?? {}).map(([name, entry]) => ({ ...entry, name, source: file }));
}

/** A repository is untrusted input: it may restrict what rein does, never widen it. */
function untrusted(config: ConfigFile, file: string, warnings: string[]): ConfigFile {
  const { permissionMode, permissions, sandbox, env, memory, ...rest } = config;
  if (memory?.auto) {
    warnings.push(`ignored memory.auto from ${file}: an untrusted workspace cannot start model calls that write your memories (run with --trust to accept it)`);
  }
  if (env?.passthrough?.length) {
    warnings.push(`ignored env.passthrough from ${file}: an untrusted workspace cannot let credentials reach its commands (run with --trust to accept it)`);
  }
  if (sandbox && sandbox !== "on") {
    warnings.push(`ignored sandbox "${sandbox}" from ${file}: an untrusted workspace cannot turn the sandbox off (run with --trust to accept it)`);
  }
  if (permissions?.allow?.length) {
    warnings.push(
      `ignored permissions.allow from ${file}: an untrusted workspace cannot allow itself permissions (run with --trust to accept them)`,
    );
  }
  const permissive = permissionMode === "auto" || permissionMode === "accept-edits";
  if (permissive) {
    warnings.push(
      `ignored permissionMode "${permissionMode}" from ${file}: an untrusted workspace cannot raise its own permission mode (run with --trust to accept it)`,
    );
  }
  return {
    ...rest,
    ...(memory?.auto === false ? { memory } : {}),
    ...(sandbox === "on" ? { sandbox } : {}),
    permissionMode: permissive ? undefined : permissionMode,
    permissions: { ask: permissions?.ask, deny: permissions?.deny },
  };
}

/**
 * The project's rules. An untrusted project may restrict, never widen: its ask rules come after
 * the user's, so the user's deny rules are repeated after them (still marked as the user's) and a
 * repository cannot turn a deny of yours into a question.
 */
/** An untrusted project's rules may ask where the user denies: the user's denies come after them again. */
function withUserDenies(rules: Rule[], user: ConfigFile | undefined, untrustedProject: boolean): Rule[] {
  if (!untrustedProject || rules.length === 0) return rules;
  return [...rules, ...fileRules(user).filter((rule) => rule.action === "deny").map((rule) => ({ ...rule, source: "user config (kept over the untrusted project's)" }))];
}

function projectRules(project: ConfigFile | undefined, user: ConfigFile | undefined, untrustedProject: boolean): (Rule & { source?: string })[] {
  const rules = fileRules(project);
  if (!untrustedProject || rules.length === 0) return rules;
  const denies = fileRules(user).filter((rule) => rule.action === "deny");
  return [...rules, ...denies.map((rule) => ({ ...rule, source: "user config (kept over the untrusted project's)" }))];
}

function fileRules(config: ConfigFile | undefined): Rule[] {
  const permissions = config?.permissions;
  return [...(permissions?.allow ?? []), ...(permissions?.ask ?? []), ...(permissions?.deny ?? [])];
}

function flagRules(overrides: Overrides): Rule[] {
  const actions: RuleAction[] = ["allow", "ask", "deny"];
  return actions.flatMap((action) => (overrides[action] ?? []).map((text) => flagRule(text, action)));
}

function flagRule(text: string, action: RuleAction): Rule {
  const read = readRule(text, action);
  if ("rule" in read) return read.rule;
  const flag = `--${action}`;
  throw new ConfigError(`config error: ${flag} ${JSON.stringify(text)}: ${read.error} (expected a rule like ${RULE_EXAMPLE})`, {
    key: flag,
  });
}

/** The warnings (earlier ones first) and the permissions none of rein's, with where each rule came from. */
function ruleNotes(sources: [string, readonly Rule[]][], earlier: string[]): Pick<ResolvedConfig, "warnings" | "foreignPermissions"> {
  const warnings = new Set(earlier);
  const foreignPermissions: ForeignPermission[] = [];
  for (const [where, rules] of sources) {
    for (const rule of rules) {
      const note = ruleNote(rule);
      if (note && "warning" in note) warnings.add(`${where}: ${note.warning}`);
      else if (note) foreignPermissions.push({ permission: rule.permission, where });
    }
  }
  return { warnings: [...warnings], foreignPermissions };
}

function fromEnv(env: Env): Settings {
  const read = <T>(name: string, schema: v.GenericSchema<unknown, T>, convert = (text: string): unknown => text) => {
    const text = env[name];
    return text === undefined || text === "" ? undefined : checked(schema, convert(text), name);
  };
  return {
    apiKey: read("ANTHROPIC_API_KEY", ApiKeySchema),
    baseURL: read("ANTHROPIC_BASE_URL", BaseUrlSchema),
    model: read("REIN_MODEL", ModelSchema),
    maxTurns: read("REIN_MAX_TURNS", MaxTurnsSchema, (text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : text)),
    maxCost: read("REIN_MAX_COST", MaxCostSchema, (text) => (/^\s*(\d+\.?\d*|\.\d+)\s*$/.test(text) ? Number(text) : text)),
    permissionMode: read("REIN_PERMISSION_MODE", PermissionModeSchema),
    sandbox: read("REIN_SANDBOX", SandboxSchema),
    serverToken: read("REIN_SERVER_TOKEN", ServerTokenSchema),
  };
}

// The CLI parses flags loosely; their values are checked here with the same schemas as the files.
function fromFlags(overrides: Overrides): Settings {
  const read = <T>(value: unknown, schema: v.GenericSchema<unknown, T>, flag: string) =>
    value === undefined ? undefined : checked(schema, value, flag);
  return {
    model: read(overrides.model, ModelSchema, "--model"),
    maxTurns: read(overrides.maxTurns, MaxTurnsSchema, "--max-turns"),
    maxCost: read(overrides.maxCost, MaxCostSchema, "--max-cost"),
    permissionMode: read(overrides.permissionMode, PermissionModeSchema, "--permission-mode"),
    sandbox: overrides.sandbox ? "on" : undefined,
    agent: overrides.agent,
  };
}

function checked<T>(schema: v.GenericSchema<unknown, T>, value: unknown, where: string): T {
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  if (result.success) return result.output;
  throw new ConfigError(`config error: ${where}: ${result.issues[0].message}`, { key: where });
}
