// The line without the parser: one simple command made only of plain literal words (`ls -la src`,
// `git status`, `echo 3`) needs no tree-sitter. Its words are split on blanks and handed to the same
// resolution a parsed simple command gets (resolve.ts: wrappers, cd, code runners...), by a walker
// that has no parser. Anything else gets undefined and goes to the parser: a character outside the
// set (quotes, `$`, globs, braces, `~`, redirections, operators, comments, newlines, backslashes,
// anything not ASCII), a first word that is a reserved word, a declaration, `unset` or an assignment,
// and a command whose resolution finds shell code to parse (`bash -c ls`, `watch ls`: NeedsParser).
// The result is the parser's, exactly (test/unit/permission/shell/literal-line.test.ts).
import { resolve } from "node:path";
import { resolveCommand } from "./resolve.ts";
import { rootScope } from "./scope.ts";
import type { ShellAnalysis } from "./types.ts";
import { Walker } from "./walk.ts";
import { literal } from "./words.ts";

// Words of letters, digits and `_ . / : , -` (and `@ % + =` after the first), separated by spaces or
// tabs, the first not starting with `-`. tree-sitter-bash reads some such words as no bash does (`a@b`
// or `a+:b` as the first word, `==` anywhere, are parse errors; `- A=b` is an assignment): those go to
// the parser, whose reading the analysis must give.
const PLAIN_LINE = /^[ \t]*[A-Za-z0-9_./][A-Za-z0-9_./:,-]*(?:[ \t]+[A-Za-z0-9_./:,@%+=-]+)*[ \t]*$/;
const ODD_WORD = /(?:^|[ \t])==(?:[ \t]|$)/;
const BLANKS = /[ \t]+/;

// First words tree-sitter-bash reads as something other than a command's name.
const NOT_A_NAME = new Set([
  ...["if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in"],
  ...["function", "time", "coproc", "declare", "typeset", "export", "readonly", "local", "unset", "unsetenv"],
]);

/** The analysis of a line of plain literal words, or undefined when the line needs the parser. */
export function analyzeLiteral(line: string, cwd: string, home: string): ShellAnalysis | undefined {
  if (!PLAIN_LINE.test(line) || ODD_WORD.test(line)) return undefined;
  const text = line.replace(/^[ \t]+|[ \t]+$/g, "");
  const words = text.split(BLANKS);
  if (NOT_A_NAME.has(words[0]!)) return undefined;
  const walker = new Walker();
  const scope = rootScope(resolve(cwd), resolve(home));
  try {
    resolveCommand(walker, scope, { words: words.map(literal), env: [], wrappers: [], place: scope.place, dynamic: false, text });
  } catch {
    return undefined; // NeedsParser, or anything else: the parser's path decides (and reports its own errors)
  }
  return finish(walker);
}

/** What a walk found, as analyzeShell reports it. */
export function finish(walker: Walker): ShellAnalysis {
  const found = { commands: unique(walker.commands), redirects: unique(walker.redirects) };
  return walker.unresolved ? { ...found, unresolved: walker.unresolved } : found;
}

/** Function bodies are walked where defined and where called: the same command can come twice. */
function unique<T>(items: T[]): T[] {
  if (items.length < 2) return items;
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
