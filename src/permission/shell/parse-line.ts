// Parses a line as bash would split it. bash removes an unquoted backslash-newline before splitting
// words (`r\<newline>m` is `rm`); tree-sitter-bash reads it as a blank between two words. Such
// continuations, found between the tokens of a first parse, are removed and the line parsed again.
// A brace expansion as the command word (`{cat,~/.ssh/id_rsa}`) is a parse error to tree-sitter;
// bash expands it into the words `cat ~/.ssh/id_rsa`, so the line is read that way.
import type { Parser, Tree } from "web-tree-sitter";

export function parseLine(parser: Parser, line: string): Tree | null {
  const tree = parser.parse(line);
  if (tree?.rootNode.hasError) return braceCommands(parser, line, tree);
  if (!tree || !line.includes("\\\n")) return tree;
  let joined = "";
  let from = 0;
  for (let at = line.indexOf("\\\n"); at >= 0; at = line.indexOf("\\\n", at + 2)) {
    const inToken = tree.rootNode.descendantForIndex(at, at + 1)?.childCount === 0;
    if (inToken || escaped(line, at)) continue;
    joined += line.slice(from, at);
    from = at + 2;
  }
  if (from === 0) return tree;
  tree.delete();
  return parser.parse(joined + line.slice(from));
}

/** Whether the backslash at `at` is itself escaped by an odd run of backslashes before it. */
function escaped(line: string, at: number): boolean {
  let run = 0;
  while (at - run - 1 >= 0 && line[at - run - 1] === "\\") run++;
  return run % 2 === 1;
}


// `{a,b,...}` where a command word starts: at the line's start or after an operator or keyword.
const BRACE_COMMAND = /(^|[;&|(\n]|\b(?:then|do|else|time|!))([ \t]*)\{([^{}\s'"\\$`]*,[^{}\s'"\\$`]*)\}(?=[\s;&|)]|$)/g;

function braceCommands(parser: Parser, line: string, tree: Tree): Tree {
  const expanded = line.replace(BRACE_COMMAND, (_, before: string, blank: string, items: string) => `${before}${blank}${items.split(",").join(" ")}`);
  if (expanded === line) return tree;
  const again = parser.parse(expanded);
  if (!again || again.rootNode.hasError) {
    again?.delete();
    return tree;
  }
  tree.delete();
  return again;
}
