// A tool with an optional pattern, as users write one in a hook's `if`, a skill's or command's
// `allowed-tools` and an agent's `tools`: `Bash(git *)`, `Edit(src/**)`, `Read`. One reader for
// all of them: the permission rules' grammar (rule-syntax.ts), the tool in rein's vocabulary
// (tool-names.ts), and Claude Code's older prefix form `Bash(git add:*)` read as `git add *`.
import { parseRule } from "./rule-syntax.ts";
import { reinToolName } from "./tool-names.ts";

/** `tool` in rein's vocabulary; `pattern` is `*` when none was written. */
export type ToolRule = { tool: string; pattern: string };

/** The tool and its pattern, or the problem as a short phrase (no trailing period). */
export function parseToolRule(text: string): ToolRule | string {
  const rule = parseRule(text, "allow");
  if (typeof rule === "string") return rule;
  const tool = reinToolName(rule.permission);
  const pattern = rule.pattern.trim() || "*";
  // Claude Code has the `:*` form for Bash rules only; elsewhere `:*` is part of a path or URL.
  return { tool, pattern: tool === "bash" && pattern.endsWith(":*") ? `${pattern.slice(0, -2).trimEnd()} *` : pattern };
}

/** The entries of a tool list: a YAML list, or text split at commas and white space outside parentheses; undefined for anything else. */
export function toolRuleList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.flatMap((item) => (typeof item === "string" && item.trim() ? [item.trim()] : []));
  if (typeof value !== "string") return undefined;
  const entries: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of value) {
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current) entries.push(current);
      current = "";
      continue;
    }
    if (char === "(") depth++;
    else if (char === ")" && depth > 0) depth--;
    current += char;
  }
  if (current) entries.push(current);
  return entries;
}
