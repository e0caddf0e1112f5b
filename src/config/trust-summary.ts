// What trusting a workspace turns on: the extension configuration a repository brings (.claude/,
// .mcp.json, opencode.json, .opencode/, .agents/, .rein/), counted, for the terminal's trust question
// and print mode's one line about what it left off. Only counts: nothing here runs or loads anything.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readOwnText } from "../sdk/own-file.ts";

export const EXTENSION_MARKERS = [".claude", ".mcp.json", "opencode.json", "opencode.jsonc", ".opencode", ".agents", ".rein"] as const;

export type TrustSummary = {
  /** the markers the project root has */
  found: string[];
  /** "2 hooks", "1 MCP server", ...: only what there is */
  parts: string[];
};

/** `home`: started in the home folder, its `.claude/` and `.agents/` are the user's own folders, not a repository's. */
export function trustSummary(root: string, home?: string): TrustSummary {
  const own: readonly string[] = root === home ? [".claude", ".agents"] : [];
  const found = EXTENSION_MARKERS.filter((marker) => !own.includes(marker) && existsSync(join(root, marker)));
  if (found.length === 0) return { found, parts: [] };
  const mine = (dir: string) => !own.some((o) => dir.startsWith(o));
  const settings = [join(root, ".claude", "settings.json"), join(root, ".claude", "settings.local.json"), join(root, ".rein", "config.json")].map((file) => (mine(file.slice(root.length + 1)) ? readJson(file) : undefined));
  const opencode = readJson(join(root, "opencode.json")) ?? readJson(join(root, "opencode.jsonc"));
  const hooks = settings.reduce((n, file) => n + hookCount(file?.hooks), 0);
  const servers = new Set([...keys(readJson(join(root, ".mcp.json"))?.mcpServers), ...keys(settings[2]?.mcpServers), ...keys(opencode?.mcp)]).size;
  const skills = [".rein/skills", ".agents/skills", ".claude/skills", ".opencode/skills", ".opencode/skill"].filter(mine).reduce((n, dir) => n + entries(join(root, dir)).filter((e) => existsSync(join(root, dir, e, "SKILL.md"))).length, 0);
  const agents = [".rein/agents", ".claude/agents", ".opencode/agent", ".opencode/agents"].filter(mine).reduce((n, dir) => n + entries(join(root, dir)).filter((e) => e.endsWith(".md")).length, 0) + keys(opencode?.agent).length;
  const allows = settings.reduce((n, file) => n + list(asRecord(file?.permissions)?.allow).length, 0);
  const tools = entries(join(root, ".rein", "tools")).filter((e) => e.endsWith(".ts")).length;
  const counted: [number, string][] = [[hooks, "hook"], [servers, "MCP server"], [skills, "skill"], [agents, "agent"], [allows, "allow rule"], [tools, "tool"]];
  return { found, parts: counted.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}${n === 1 ? "" : "s"}`) };
}

/** "2 hooks, 1 MCP server and 3 skills" */
export function listed(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    // JSONC (opencode.jsonc): comments and trailing commas out first; a count need not be exact on odd files.
    const text = readOwnText(file).replace(/^\s*\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "").replace(/,(\s*[}\]])/g, "$1");
    return asRecord(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function hookCount(hooks: unknown): number {
  let n = 0;
  for (const groups of Object.values(asRecord(hooks) ?? {})) for (const group of list(groups)) n += list(asRecord(group)?.hooks).length;
  return n;
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function keys(value: unknown): string[] {
  return Object.keys(asRecord(value) ?? {});
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
