// Claude Code's permission rules (`Bash(npm run test:*)`, `Read(./secrets/**)`,
// `WebFetch(domain:example.com)`, `mcp__github`, `Skill(name)`, `Agent(name)`) in rein's rules.
// The outer shape is read with the one rule grammar (rule-syntax.ts) and each translated rule is
// written back through it; what differs is the tool's name and how a path or a domain is written.
// Paths follow Claude Code: `//abs` from the file system's root, `~/x` from the home folder, `/x`
// from the settings file's project root, `x` and `./x` from the working directory; `**` and `*`
// become rein's `*` (which also crosses `/`, so a `*` in a deny covers at least what Claude's does).
import { isAbsolute } from "node:path";
import { resolveForCheck } from "../permission/paths.ts";
import { formatRule, parseRule, type RuleAction, type WrittenRule } from "../permission/rule-syntax.ts";
import { reinToolName, toolPermission } from "../permission/tool-names.ts";

export type ClaudeRuleBase = { cwd: string; root: string; home: string };

/** The rein rules one Claude rule stands for, or why it has none (a short phrase). */
export function translateClaudeRule(text: string, action: RuleAction, base: ClaudeRuleBase): WrittenRule[] | string {
  if (typeof text !== "string") return "not a string";
  const written = parseRule(text, action);
  if (typeof written === "string") return written;
  const name = written.permission;
  const pattern = written.pattern;
  if (name.startsWith("mcp__")) return pattern === "*" ? [rule(name, "*", action)] : "an MCP rule takes no pattern in parentheses";
  const tool = reinToolName(name);
  const permission = UNTRANSLATED.has(tool) ? undefined : CLAUDE_ONLY[tool] ?? (tool !== name || RE_NAMES.has(name) ? toolPermission(tool) : undefined);
  if (!permission) return `rein has no tool for Claude Code's ${name}`;
  if (pattern === "*" || pattern.trim() === "*") return [rule(permission, "*", action)];
  switch (permission) {
    case "bash":
      return [rule("bash", bashPattern(pattern), action)];
    case "read":
    case "edit": {
      const path = pathPattern(pattern, base);
      // `secrets/**` names the folder as well: `ls secrets` and `grep -r x secrets` read it whole.
      const folder = path.endsWith("/*") && !path.slice(0, -2).includes("*") ? [rule(permission, path.slice(0, -2), action)] : [];
      return [...folder, rule(permission, path, action)];
    }
    case "webfetch":
      return webfetchRules(pattern, action);
    case "task":
    case "skill":
    case "websearch":
      return [rule(permission, pattern.trim(), action)];
    default:
      return `rein cannot translate a pattern for ${name}`;
  }
}

/** rein's own tool names written in a Claude file (`bash`, `read`) mean the same tools. */
const RE_NAMES = new Set(["bash", "read", "edit", "write", "glob", "grep", "list", "webfetch", "task"]);
/** Claude Code's tools rein names differently or has as a permission, not a tool. */
const CLAUDE_ONLY: Readonly<Record<string, string>> = { Skill: "skill", skill: "skill", Agent: "task", Task: "task", WebSearch: "websearch", websearch: "websearch" };
/** Claude Code tools rein has under the same names but whose rules mean nothing here. */
const UNTRANSLATED = new Set(["todo", "history"]);

function rule(permission: string, pattern: string, action: RuleAction): WrittenRule {
  // Round trip through the grammar: what we write is what a config file would read back.
  const back = parseRule(formatRule({ permission, pattern }), action);
  if (typeof back === "string") throw new Error(`internal: translated rule does not parse: ${back}`);
  return back;
}

/** Claude's legacy `prefix:*` is rein's `prefix *` (a word boundary, the rest optional). */
function bashPattern(pattern: string): string {
  const trimmed = pattern.trim();
  return trimmed.endsWith(":*") ? `${trimmed.slice(0, -2).trimEnd()} *` : trimmed;
}

/** A Claude path pattern as the absolute path pattern rein's read and edit requests are matched against. */
export function pathPattern(pattern: string, base: ClaudeRuleBase): string {
  const text = pattern.trim().replaceAll("**", "*").replace(/\*+/g, "*");
  const absolute = text.startsWith("//")
    ? text.slice(1)
    : text === "~" || text.startsWith("~/")
      ? `${base.home}${text.slice(1)}`
      : text.startsWith("/")
        ? `${base.root}${text}`
        : `${base.cwd}/${text.replace(/^\.\//, "")}`;
  // `secrets/` is the folder's contents.
  const withContents = absolute.endsWith("/") ? `${absolute}*` : absolute;
  return resolvedPrefix(withContents, base.home);
}

/**
 * Requests carry paths with their symlinks resolved (`/tmp` may be `/private/tmp`): the part of the
 * pattern before its first `*` is resolved the same way, so a rule still meets its file.
 */
function resolvedPrefix(pattern: string, home: string): string {
  const star = pattern.indexOf("*");
  const fixed = star === -1 ? pattern : pattern.slice(0, star);
  const cut = star === -1 ? fixed.length : fixed.lastIndexOf("/");
  const head = fixed.slice(0, cut);
  if (!head || !isAbsolute(head)) return pattern;
  const resolved = resolveForCheck(head, "/", home);
  return `${resolved === "/" && cut < pattern.length ? "" : resolved}${pattern.slice(cut)}`;
}

/** `domain:example.com` is every http(s) URL of that host; anything else is taken as a URL pattern. */
function webfetchRules(pattern: string, action: RuleAction): WrittenRule[] | string {
  const trimmed = pattern.trim();
  if (!trimmed.startsWith("domain:")) return [rule("webfetch", trimmed, action)];
  const host = trimmed.slice("domain:".length).trim().toLowerCase();
  if (!/^[a-z0-9*.-]+(:\d+)?$/.test(host)) return `"${host}" is not a host name`;
  return ["https", "http"].flatMap((scheme) => [rule("webfetch", `${scheme}://${host}`, action), rule("webfetch", `${scheme}://${host}/*`, action)]);
}
