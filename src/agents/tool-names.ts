// An agent's `tools` and `disallowedTools`: tool names in Claude Code's vocabulary or rein's.
import { parseToolRule, toolRuleList } from "../permission/tool-rule.ts";

/** The tools of a list, in rein's names; a pattern (`Bash(git *)`) counts as its tool alone, an entry that is no tool name is left out with a note. */
export function toolList(value: unknown, note: (text: string) => void): string[] | undefined {
  return toolRuleList(flowList(value))?.flatMap((entry) => {
    const read = parseToolRule(entry);
    if (typeof read !== "string") return [read.tool];
    note(`tool "${entry}" is not a tool name (${read}): left out`);
    return [];
  });
}

/** `["Read", "Grep"]` left as text by a lenient reading is the list it spells. */
function flowList(value: unknown): unknown {
  if (typeof value !== "string" || !/^\s*\[[\s\S]*\]\s*$/.test(value)) return value;
  try {
    const list: unknown = Bun.YAML.parse(value);
    return Array.isArray(list) ? list : value;
  } catch {
    return value;
  }
}
