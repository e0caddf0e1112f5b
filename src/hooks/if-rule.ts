// A handler's `if`: one rule, `Tool` or `Tool(pattern)` (`Bash(git *)`, `Edit(*.ts)`), read as
// every tool rule is (permission/tool-rule.ts); a `*` in the tool's name matches any run of
// characters. A Bash rule is matched against each command the line would run, as the permission
// engine finds them (`a && b`, pipes, `$( )`, wrappers looked through): the hook runs when any of
// them matches. Other tools match the call's main input (the file path, whole or its name, the URL,
// the search pattern). Only tool events have a call: a hook with `if` on any other event never
// runs. A rule or a line that cannot be read lets the hook run (it fails open, as Claude Code's does).
import { homedir } from "node:os";
import { commandPatterns } from "../permission/always.ts";
import { parseToolRule } from "../permission/tool-rule.ts";
import { matchWildcard } from "../permission/wildcard.ts";

const MAIN_FIELD: Readonly<Record<string, string>> = { bash: "command", edit: "path", write: "path", read: "path", glob: "pattern", grep: "pattern", list: "path", webfetch: "url" };

/** Where a call's bash line runs, and the forms of its commands once analysed (one analysis a line, however many rules). */
export type IfScope = { cwd: string; home?: string; lines?: Map<string, Promise<string[][] | undefined>> };

export async function ifAllows(rule: string | undefined, tool: string | undefined, input: unknown, scope: IfScope): Promise<boolean> {
  if (rule === undefined) return true;
  if (tool === undefined) return false;
  const read = parseToolRule(rule);
  if (typeof read === "string") return true;
  if (read.tool.includes("*") ? !matchWildcard(read.tool, tool) : read.tool !== tool) return false;
  if (read.pattern === "*") return true;
  const field = MAIN_FIELD[tool];
  const value = field && typeof input === "object" && input !== null ? (input as Record<string, unknown>)[field] : undefined;
  if (typeof value !== "string") return true;
  if (tool === "bash") {
    const commands = await commandForms(value, scope);
    if (!commands) return true;
    return commands.some((forms) => forms.some((form) => matchWildcard(read.pattern, form)));
  }
  return matchWildcard(read.pattern, value) || (field === "path" && matchWildcard(read.pattern, value.split("/").at(-1) ?? value));
}

/** Each command of the line as the rules see it (its pattern, then its forms without wrappers); undefined when the line cannot be analysed. */
function commandForms(line: string, scope: IfScope): Promise<string[][] | undefined> {
  const lines = (scope.lines ??= new Map());
  let found = lines.get(line);
  if (!found) {
    found = analyse(line, scope);
    lines.set(line, found);
  }
  return found;
}

async function analyse(line: string, scope: IfScope): Promise<string[][] | undefined> {
  // Loaded on first use, as the permission engine does: a session whose hooks have no Bash `if` never needs the parser.
  const { analyzeShell } = await import("../permission/shell/analyze.ts");
  const analysis = await analyzeShell(line, scope.cwd, scope.home ?? homedir());
  if (analysis.error) return undefined;
  if (analysis.commands.length === 0) return [[line.trim()]];
  return analysis.commands.map((command) => {
    const { pattern, alsoCheck } = commandPatterns(command);
    return [pattern, ...alsoCheck];
  });
}
