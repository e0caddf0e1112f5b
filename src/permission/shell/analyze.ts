// analyzeShell: every command a bash line would run, where it runs, and the files its redirections
// touch, from the tree-sitter parse. What the analysis cannot see is marked, never guessed: `opaque`
// on a command, `dynamic` on a word or directory, `error` for a line that does not parse.
import { resolve } from "node:path";
import type { Node, Parser } from "web-tree-sitter";
import { parseLine } from "./parse-line.ts";
import { loadShellParser } from "./parser.ts";
import { rootScope } from "./scope.ts";
import type { ShellAnalysis } from "./types.ts";
import { TooDeep, Walker } from "./walk.ts";

export { loadShellParser } from "./parser.ts";

/** Analyses one command line run from `cwd`, expanding `~` and `$HOME` with `home`. */
export async function analyzeShell(line: string, cwd: string, home: string): Promise<ShellAnalysis> {
  return analyzeWith(await loadShellParser(), line, cwd, home);
}

/** The same, with a parser already loaded (for callers that hold one, and the benchmark). */
export function analyzeWith(parser: Parser, line: string, cwd: string, home: string): ShellAnalysis {
  const tree = parseLine(parser, line);
  if (!tree) return { commands: [], redirects: [], error: "the command line could not be parsed" };
  try {
    if (tree.rootNode.hasError) return { commands: [], redirects: [], error: parseError(tree.rootNode) };
    const walker = new Walker(parser);
    walker.sequence(tree.rootNode, rootScope(resolve(cwd), resolve(home)));
    const found = { commands: unique(walker.commands), redirects: unique(walker.redirects) };
    return walker.unresolved ? { ...found, unresolved: walker.unresolved } : found;
  } catch (error) {
    // Fail closed: a line the analysis cannot finish is reported as an error, and the caller asks.
    const reason = error instanceof TooDeep ? "it nests too deeply" : error instanceof Error ? error.message : String(error);
    return { commands: [], redirects: [], error: `the command line could not be analysed: ${reason}` };
  } finally {
    tree.delete();
  }
}

function parseError(root: Node): string {
  let node = root;
  for (;;) {
    const next = node.children.find((c) => c.hasError || c.isMissing);
    if (!next || node.isError) break;
    node = next;
  }
  const { row, column } = node.startPosition;
  const near = node.isMissing ? `a missing "${node.type}"` : JSON.stringify(node.text.slice(0, 30));
  return `the command line does not parse as bash (line ${row + 1}, column ${column + 1}: ${near})`;
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
