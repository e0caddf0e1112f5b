// An agent's `tools` and `disallowedTools`: tool names in Claude Code's vocabulary or rein's.
import { parseToolRule, toolRuleList } from "../permission/tool-rule.ts";

/** The tools of a list, in rein's names; a pattern (`Bash(git *)`) counts as its tool alone, an entry that is no tool name is left out with a note. */
export function toolList(value: unknown, note: (text: string) => void): string[] | undefined {
  return toolRuleList(value)?.flatMap((entry) => {
    const read = parseToolRule(entry);
    if (typeof read !== "string") return [read.tool];
    note(`tool "${entry}" is not a tool name (${read}): left out`);
    return [];
  });
}
