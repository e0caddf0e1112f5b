// `allowed-tools` as rules: Claude Code's `Bash(git add:*)`, `Read`, `Edit(src/**)` become allow
// rules granted for the run that uses the command or skill. They join the run-time approvals, so a
// configured deny still wins over them.
import type { Rule } from "../permission/evaluate.ts";
import { toolPermission } from "../permission/tool-names.ts";
import { parseToolRule } from "../permission/tool-rule.ts";

/** What is wrong with the entries that grant nothing, one phrase each. */
export function grantProblems(tools: readonly string[]): string[] {
  return tools.flatMap((entry) => {
    const read = parseToolRule(entry);
    return typeof read === "string" ? [`allowed-tools entry "${entry}" is not a tool rule (${read}), so it grants nothing; write Tool or Tool(pattern)`] : [];
  });
}

export function grantRules(tools: readonly string[], source: string): Rule[] {
  return tools.flatMap((entry) => {
    const read = parseToolRule(entry);
    return typeof read === "string" ? [] : [{ permission: toolPermission(read.tool), pattern: read.pattern, action: "allow" as const, source }];
  });
}
