// What installing a plugin lets it run, for the person to read before saying yes: each hook
// handler, each MCP server's command line or URL, and the programs in bin/.
import { readdirSync } from "node:fs";
import type { Plugin } from "./read-plugin.ts";

export function runsSummary(plugin: Plugin): string[] {
  const lines: string[] = [];
  for (const set of plugin.hooks) {
    for (const [event, groups] of Object.entries(set.hooks)) {
      for (const group of Array.isArray(groups) ? groups : []) {
        const matcher = isRecord(group) && typeof group.matcher === "string" && group.matcher ? `(${group.matcher})` : "";
        for (const handler of isRecord(group) && Array.isArray(group.hooks) ? group.hooks : []) lines.push(`hook ${event}${matcher}: ${handlerText(handler)}`);
      }
    }
  }
  for (const set of plugin.mcpServers) {
    for (const [name, entry] of Object.entries(set.servers)) lines.push(`MCP server ${name}: ${serverText(entry)}`);
  }
  for (const set of plugin.lspServers) {
    for (const [name, entry] of Object.entries(set.servers)) lines.push(`language server ${name}: ${serverText(entry)}${languages(entry)}`);
  }
  if (plugin.bin) lines.push(`bin/ on the bash tool's PATH: ${programs(plugin.bin).join(", ") || "(empty)"}`);
  return lines;
}

/** What else it brings, counted. */
export function bringsSummary(plugin: Plugin): string {
  const count = (dirs: readonly string[], what: string) => {
    const n = dirs.reduce((sum, dir) => sum + programs(dir).length, 0);
    return n ? [`${n} ${what}${n === 1 ? "" : "s"}`] : [];
  };
  const named = plugin.skillDirs.length ? [`${plugin.skillDirs.length} skill${plugin.skillDirs.length === 1 ? "" : "s"}`] : [];
  const single = plugin.skill ? ["1 skill (its SKILL.md)"] : [];
  return [...count(plugin.commands, "command file"), ...count(plugin.skills, "skill folder"), ...named, ...single, ...count(plugin.agents, "agent file")].join(", ") || "nothing else";
}

function handlerText(handler: unknown): string {
  if (!isRecord(handler)) return JSON.stringify(handler);
  if (handler.type === "command") return [handler.command, ...(Array.isArray(handler.args) ? handler.args : [])].map(String).join(" ");
  if (handler.type === "http") return `POST ${String(handler.url)}`;
  if (handler.type === "prompt") return `a model prompt`;
  return `${String(handler.type)} handler`;
}

function serverText(entry: unknown): string {
  if (!isRecord(entry)) return JSON.stringify(entry);
  if (typeof entry.url === "string") return entry.url;
  return [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].map(String).join(" ");
}

/** When a language server starts: at the first file of one of its extensions. */
function languages(entry: unknown): string {
  const map = isRecord(entry) && isRecord(entry.extensionToLanguage) ? Object.keys(entry.extensionToLanguage) : [];
  return map.length ? ` (started at the first ${map.join(", ")} file)` : "";
}

function programs(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => !name.startsWith(".")).sort();
  } catch {
    return [];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
