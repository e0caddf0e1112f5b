// Parses a line as bash would split it. bash removes an unquoted backslash-newline before splitting
// words (`r\<newline>m` is `rm`); tree-sitter-bash reads it as a blank between two words. Such
// continuations, found between the tokens of a first parse, are removed and the line parsed again.
import type { Parser, Tree } from "web-tree-sitter";

export function parseLine(parser: Parser, line: string): Tree | null {
  const tree = parser.parse(line);
  if (!tree || tree.rootNode.hasError || !line.includes("\\\n")) return tree;
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

