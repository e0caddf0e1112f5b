// Where Claude Code's settings files and OpenCode's config files are, and what reading none gives:
// load.ts asks for their readers (claude-settings.ts, opencode-config.ts) only when one of the
// files exists, so a machine with neither tool configured loads neither reader.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ClaudeScope, ClaudeSettings } from "./claude-settings.ts";
import { foldersUpTo } from "./find-project-root.ts";
import type { OpencodeConfig } from "./opencode-config.ts";

type Env = Record<string, string | undefined>;

/** Where Claude Code keeps the managed file on Linux; REIN_CLAUDE_MANAGED_SETTINGS points elsewhere (tests). */
export const MANAGED_SETTINGS = "/etc/claude-code/managed-settings.json";

/** Claude Code's settings files, lowest first; `sources` (`--setting-sources`) keeps some (the managed file always counts). */
export function claudeSettingsFiles(opts: { projectRoot: string; home: string; env: Env; sources?: readonly string[] }): [string, ClaudeScope][] {
  const userDir = opts.env.CLAUDE_CONFIG_DIR || join(opts.home, ".claude");
  const all: [string, ClaudeScope][] = [
    [join(userDir, "settings.json"), "user"],
    [join(opts.projectRoot, ".claude", "settings.json"), "project"],
    [join(opts.projectRoot, ".claude", "settings.local.json"), "local"],
    [opts.env.REIN_CLAUDE_MANAGED_SETTINGS || MANAGED_SETTINGS, "managed"],
  ];
  return all.filter(([, scope]) => scope === "managed" || !opts.sources || opts.sources.includes(scope));
}

/** OpenCode's config files: the user's, the project's from the root down, then OPENCODE_CONFIG's. */
export function opencodeFiles(opts: { cwd: string; projectRoot: string; home: string; env: Env }): [string, "user" | "project"][] {
  const configHome = opts.env.XDG_CONFIG_HOME || join(opts.home, ".config");
  const names = (dir: string) => [join(dir, "opencode.json"), join(dir, "opencode.jsonc")];
  return [
    ...names(join(configHome, "opencode")).map((f): [string, "user"] => [f, "user"]),
    ...foldersUpTo(opts.cwd, opts.projectRoot).reverse().flatMap((dir) => names(dir).map((f): [string, "project"] => [f, "project"])),
    ...(opts.env.OPENCODE_CONFIG ? [[resolve(opts.cwd, opts.env.OPENCODE_CONFIG), "user"] as [string, "user"]] : []),
  ];
}

/** Whether any of `files` is there (a path that is there but unreadable counts: its reader says why). */
export function anyExists(files: readonly [string, string][]): boolean {
  return files.some(([file]) => existsSync(file));
}

export function noClaudeSettings(): ClaudeSettings {
  return { allow: { user: [], project: [], flag: [] }, asks: [], denies: [], user: {}, project: {}, flag: {}, managed: {}, env: {}, directories: [], files: [], warnings: [] };
}

export function noOpencodeConfig(): OpencodeConfig {
  return { rules: { user: [], project: [] }, model: {}, agents: [], mcpServers: [], lsp: [], commands: [], instructions: [], providers: [], files: [], warnings: [] };
}
