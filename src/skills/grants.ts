// `allowed-tools` as rules: Claude Code's `Bash(git add:*)`, `Read`, `Edit(src/**)` become allow
// rules granted for the run that uses the command or skill. They join the run-time approvals, so a
// configured deny still wins over them.
import type { Rule } from "../permission/evaluate.ts";
import { reinToolName, toolPermission } from "../permission/tool-names.ts";

const ENTRY = /^([\w-]+)(?:\((.*)\))?$/;

export function grantRules(tools: readonly string[], source: string): Rule[] {
  const rules: Rule[] = [];
  for (const tool of tools) {
    const match = ENTRY.exec(tool.trim());
    if (!match) continue;
    const permission = toolPermission(reinToolName(match[1]!));
    // Claude Code writes a prefix as `git add:*`; rein's wildcard for it is `git add *`.
    const pattern = match[2]?.trim() ? match[2].trim().replace(/:\*$/, " *") : "*";
    rules.push({ permission, pattern, action: "allow", source });
  }
  return rules;
}
