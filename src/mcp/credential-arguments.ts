// An MCP tool's arguments are the server's business, with one exception: an argument naming a
// credential (`~/.ssh/id_rsa`, `/home/u/.aws/credentials`, another agent's token store) becomes a
// `read` request, which the permission engine denies in every mode, auto mode included. So a
// filesystem server allowed by `mcp__fs` still cannot hand the model a key.
import { homedir } from "node:os";
import type { PermissionRequest } from "../sdk.ts";
import { credentialMention } from "../permission/credential-text.ts";

const MAX_DEPTH = 6;
const MAX_STRINGS = 500;

export function credentialArguments(input: unknown, cwd: string, home: string = process.env.HOME || homedir()): PermissionRequest[] {
  const strings: string[] = [];
  collect(input, strings, 0);
  const found = new Map<string, PermissionRequest>();
  for (const text of strings) {
    const mention = credentialMention(text, home, [cwd]);
    if (mention) found.set(mention.path, { permission: "read", pattern: mention.path, always: [] });
  }
  return [...found.values()];
}

function collect(value: unknown, into: string[], depth: number): void {
  if (into.length >= MAX_STRINGS || depth > MAX_DEPTH) return;
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) collect(item, into, depth + 1);
  else if (value && typeof value === "object") for (const item of Object.values(value)) collect(item, into, depth + 1);
}
