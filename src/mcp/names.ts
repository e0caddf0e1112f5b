// A server tool's name as rein offers it: `mcp__SERVER__TOOL`, every character outside
// [A-Za-z0-9_-] replaced by `_`. The model APIs take at most 64 characters, so a longer name keeps
// its first 55 and ends with `_` and 8 hex digits of the SHA-256 of the full name: the same name
// always shortens the same way, and two long names that share a beginning stay apart.

import { digestHex } from "../sdk/digest.ts";

export const MAX_TOOL_NAME = 64;
const HASH = 8;

export function cleanName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function toolName(server: string, tool: string): string {
  const full = `${serverPermission(server)}__${cleanName(tool)}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  const hash = digestHex("sha256", full).slice(0, HASH);
  return `${full.slice(0, MAX_TOOL_NAME - HASH - 1)}_${hash}`;
}

/** The permission prefix of a server's tools: `mcp__SERVER`. */
export function serverPermission(server: string): string {
  return `mcp__${cleanName(server)}`;
}
