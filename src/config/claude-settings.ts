// Claude Code's settings files as rein reads them: the user's (`~/.claude/settings.json`, or
// `$CLAUDE_CONFIG_DIR/settings.json`), the project's (`.claude/settings.json`), the local one
// (`.claude/settings.local.json`) and the managed one (`/etc/claude-code/managed-settings.json`).
// Their permission rules are translated into rein's (claude-rule.ts); `defaultMode`, `model`,
// `env` and `additionalDirectories` become settings. A deny or ask holds from any file; what a
// project file loosens (allow, a mode, env, a model, folders) applies only in a trusted workspace.
// These files belong to Claude Code: what rein cannot use is a warning, never an error.
import { resolve } from "node:path";
import type { PermissionMode } from "../permission/modes.ts";
import type { RuleAction, WrittenRule } from "../permission/rule-syntax.ts";
import { translateClaudeRule, type ClaudeRuleBase } from "./claude-rule.ts";
import { optionalJsonObject, parseJsonObject } from "./optional-json.ts";
import { claudeSettingsFiles, noClaudeSettings } from "./foreign-files.ts";

export { claudeSettingsFiles, MANAGED_SETTINGS } from "./foreign-files.ts";

type Env = Record<string, string | undefined>;
/** `flag`: the file or JSON of `--settings` */
export type ClaudeScope = "user" | "project" | "local" | "flag" | "managed";
export type SourcedRule = WrittenRule & { source: string };

/** What one settings file brought, for `rein doctor`. */
export type ClaudeFileReport = { file: string; scope: ClaudeScope; applied: string[]; ignored: string[] };

export type ClaudeSettings = {
  /** allow rules, by the layer they join (the managed file's join the user's) */
  allow: { user: SourcedRule[]; project: SourcedRule[]; flag: SourcedRule[] };
  /** ask then deny rules from every file: they hold over any allow, rein's own included */
  asks: SourcedRule[];
  denies: SourcedRule[];
  /** scalar settings by layer, lowest first within Claude's order (user < project < local) */
  user: ClaudeScalars;
  project: ClaudeScalars;
  flag: ClaudeScalars;
  managed: ClaudeScalars;
  /** variables for the processes tools, hooks and MCP servers start */
  env: Record<string, string>;
  /** folders outside the project that count as the workspace */
  directories: string[];
  files: ClaudeFileReport[];
  warnings: string[];
};
export type ClaudeScalars = { model?: string; permissionMode?: PermissionMode };


/** Claude Code's `defaultMode` names as rein's permission modes. */
export const CLAUDE_MODES: Readonly<Record<string, PermissionMode>> = {
  default: "default",
  acceptEdits: "accept-edits",
  plan: "plan",
  bypassPermissions: "auto",
  auto: "auto",
  dontAsk: "default",
};

/** The keys rein applies; any other key of a settings file is listed as not applied. */
const APPLIED_KEYS = new Set(["permissions", "env", "model", "hooks", "$schema"]);
const PERMISSION_KEYS = new Set(["allow", "deny", "ask", "defaultMode", "additionalDirectories"]);
/** Variables a settings file may not set for rein's tools: the providers' keys and endpoints, rein's own. */
const RESERVED_ENV = /^(ANTHROPIC_|OPENAI_|OPENROUTER_|REIN_)/;


export type ClaudeSettingsOptions = {
  cwd: string;
  projectRoot: string;
  home: string;
  env: Env;
  trusted: boolean;
  /** `--setting-sources user,project,local` */
  sources?: readonly string[];
  /** `--settings FILE|JSON` */
  flag?: string;
};

export function readClaudeSettings(opts: ClaudeSettingsOptions): ClaudeSettings {
  const out = noClaudeSettings();
  const files = claudeSettingsFiles(opts);
  for (const [file, scope] of files.filter(([, scope]) => scope !== "managed")) {
    const json = readJsonObject(file, out.warnings);
    if (json) applyFile(json, file, scope, opts, out);
  }
  if (opts.flag !== undefined) {
    const inline = opts.flag.trim().startsWith("{");
    const label = inline ? "--settings" : resolve(opts.cwd, opts.flag);
    const json = inline ? parseObject(opts.flag, label, out.warnings) : readJsonObject(label, out.warnings, true);
    if (json) applyFile(json, label, "flag", opts, out);
  }
  for (const [file, scope] of files.filter(([, scope]) => scope === "managed")) {
    const json = readJsonObject(file, out.warnings);
    if (json) applyFile(json, file, scope, opts, out);
  }
  return out;
}

function applyFile(json: Record<string, unknown>, file: string, scope: ClaudeScope, opts: { cwd: string; projectRoot: string; home: string; trusted: boolean }, out: ClaudeSettings): void {
  const report: ClaudeFileReport = { file, scope, applied: [], ignored: [] };
  out.files.push(report);
  const fromRepo = scope === "project" || scope === "local";
  const loosens = !fromRepo || opts.trusted;
  const untrusted = (what: string) => {
    report.ignored.push(`${what}: the workspace is not trusted (run with --trust, or answer the trust question, to apply it)`);
    out.warnings.push(`ignored ${what} from ${file}: an untrusted workspace cannot loosen its own permissions or settings (run with --trust to accept it)`);
  };
  const scalars = scope === "managed" ? out.managed : scope === "user" ? out.user : scope === "flag" ? out.flag : out.project;
  const base: ClaudeRuleBase = { cwd: opts.cwd, root: opts.projectRoot, home: opts.home };
  for (const key of Object.keys(json)) if (!APPLIED_KEYS.has(key)) report.ignored.push(`${key}: rein has no such setting`);

  const permissions = json.permissions;
  if (permissions !== undefined && !isRecord(permissions)) out.warnings.push(`${file}: "permissions" is not an object; its rules were not loaded`);
  if (isRecord(permissions)) {
    for (const key of Object.keys(permissions)) if (!PERMISSION_KEYS.has(key)) report.ignored.push(`permissions.${key}: rein has no such setting`);
    for (const action of ["allow", "ask", "deny"] as const) {
      const rules = translatedList(permissions[action], action, base, file, report, out.warnings);
      if (rules.length === 0) continue;
      if (action !== "allow") {
        (action === "ask" ? out.asks : out.denies).push(...rules);
        report.applied.push(`permissions.${action}: ${rules.length} rein rule${rules.length === 1 ? "" : "s"}`);
      } else if (loosens) {
        out.allow[scope === "user" || scope === "managed" ? "user" : scope === "flag" ? "flag" : "project"].push(...rules);
        report.applied.push(`permissions.allow: ${rules.length} rein rule${rules.length === 1 ? "" : "s"}`);
      } else untrusted(`permissions.allow (${rules.length} rule${rules.length === 1 ? "" : "s"})`);
    }
    const mode = permissions.defaultMode;
    if (mode !== undefined) {
      const rein = typeof mode === "string" ? CLAUDE_MODES[mode] : undefined;
      if (!rein) {
        report.ignored.push(`permissions.defaultMode: ${JSON.stringify(mode)} is none of ${Object.keys(CLAUDE_MODES).join(", ")}`);
        out.warnings.push(`${file}: permissions.defaultMode ${JSON.stringify(mode)} is none of Claude Code's modes (${Object.keys(CLAUDE_MODES).join(", ")}); ignored`);
      } else if (loosens) {
        scalars.permissionMode = rein;
        report.applied.push(`permissions.defaultMode: ${mode} (rein's ${rein})`);
      } else untrusted(`permissions.defaultMode "${mode}"`);
    }
    const dirs = permissions.additionalDirectories;
    if (Array.isArray(dirs)) {
      const list = dirs.filter((d): d is string => typeof d === "string" && d.trim() !== "").map((d) => resolve(base.root, d.replace(/^~(?=\/|$)/, opts.home)));
      if (list.length && loosens) {
        out.directories.push(...list);
        report.applied.push(`permissions.additionalDirectories: ${list.join(", ")}`);
      } else if (list.length) untrusted("permissions.additionalDirectories");
    }
  }
  if (typeof json.model === "string" && json.model.trim()) {
    if (loosens) {
      scalars.model = json.model.trim();
      report.applied.push(`model: ${scalars.model}`);
    } else untrusted(`model "${json.model}"`);
  }
  if (isRecord(json.env)) {
    const entries = Object.entries(json.env).flatMap(([name, value]): [string, string][] =>
      typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? [[name, String(value)]] : []);
    const reserved = entries.filter(([name]) => RESERVED_ENV.test(name)).map(([name]) => name);
    const kept = entries.filter(([name]) => !RESERVED_ENV.test(name));
    if (reserved.length) report.ignored.push(`env ${reserved.join(", ")}: provider keys, endpoints and rein's own settings are not taken from a settings file`);
    if (kept.length && loosens) {
      for (const [name, value] of kept) out.env[name] = value;
      report.applied.push(`env: ${kept.map(([name]) => name).join(", ")} for the processes tools start`);
    } else if (kept.length) untrusted(`env (${kept.map(([name]) => name).join(", ")})`);
  }
  if (json.hooks !== undefined) report.applied.push(fromRepo && !opts.trusted ? "hooks: listed, inactive until the workspace is trusted" : "hooks");
}

function translatedList(value: unknown, action: RuleAction, base: ClaudeRuleBase, file: string, report: ClaudeFileReport, warnings: string[]): SourcedRule[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    warnings.push(`${file}: "permissions.${action}" is not a list of rules; ignored`);
    return [];
  }
  const out: SourcedRule[] = [];
  for (const text of value) {
    const rules = translateClaudeRule(text as string, action, base);
    if (typeof rules === "string") {
      warnings.push(`${file}: permissions.${action} rule ${JSON.stringify(text)} was not applied: ${rules}`);
      report.ignored.push(`permissions.${action} ${JSON.stringify(text)}: ${rules}`);
      continue;
    }
    out.push(...rules.map((rule) => ({ ...rule, source: `${file} (${String(text)})` })));
  }
  return out;
}

/** A file named on the command line (`required`) that is not there is worth a line; a default one is not. */
function readJsonObject(file: string, warnings: string[], required = false): Record<string, unknown> | undefined {
  return optionalJsonObject(file, warnings, NOT_LOADED, { required });
}

/** --settings given as JSON text. */
function parseObject(text: string, label: string, warnings: string[]): Record<string, unknown> | undefined {
  const parsed = parseJsonObject(text);
  if ("json" in parsed) return parsed.json;
  warnings.push(`${label}: ${parsed.problem}; ${NOT_LOADED}`);
  return undefined;
}

const NOT_LOADED = "its settings were not loaded";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
