// An agent's `tools` and `disallowedTools`: tool names in Claude Code's vocabulary or rein's.
import { reinToolName } from "../permission/tool-names.ts";

/** `Bash(git *)`-style entries of a tools list are read as the tool alone. */
export function toolList(value: unknown): string[] | undefined {
  const items = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
  if (!items) return undefined;
  return items.map((item) => reinToolName(item.replace(/\(.*\)\s*$/, ""))).filter((name) => name.length > 0);
}
