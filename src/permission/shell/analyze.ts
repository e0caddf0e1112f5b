// analyzeShell: every command a bash line would run, where it runs, and the files its redirections
// touch, from the tree-sitter parse. What the analysis cannot see is marked, never guessed: `opaque`
// on a command, `dynamic` on a word or directory, `error` for a line that does not parse.
// A line of plain literal words is analysed without the parser (literal-line.ts); the parser
// (web-tree-sitter and its wasm, parser.ts) is loaded at the first line that needs it.
import { resolve } from "node:path";
import type { Node, Parser } from "web-tree-sitter";
import { analyzeLiteral, finish } from "./literal-line.ts";
import { parseLine } from "./parse-line.ts";
import { rootScope } from "./scope.ts";
import type { ShellAnalysis } from "./types.ts";
import { TooDeep, Walker } from "./walk.ts";

/** Analyses one command line run from `cwd`, expanding `~` and `$HOME` with `home`. */
export async function analyzeShell(line: string, cwd: string, home: string): Promise<ShellAnalysis> {
  settleWarmUp();
  return analyzeLiteral(line, cwd, home) ?? analyzeWith(await loadShellParser(), line, cwd, home);
}

/** The shared bash parser (loaded once; see parser.ts). */
export async function loadShellParser(): Promise<Parser> {
  return (await import("./parser.ts")).loadShellParser();
}

// The parser takes tens of milliseconds to load. warmUpParser (called when the model starts its first
// tool call) loads it WARM_DELAY_MS later, hidden behind a model still writing the call; a call that
// arrives sooner decides itself: a literal line never loads it, any other loads it at once.
const WARM_DELAY_MS = 25;
let warmTimer: ReturnType<typeof setTimeout> | undefined;
let analysed = false;

/** Starts loading the parser soon, unless a line is analysed first. */
export function warmUpParser(): void {
  if (analysed || warmTimer) return;
  warmTimer = setTimeout(() => void loadShellParser().catch(() => {}), WARM_DELAY_MS);
  warmTimer.unref?.();
}

function settleWarmUp(): void {
  analysed = true;
  if (warmTimer) clearTimeout(warmTimer);
}

/** The same, with a parser already loaded (for callers that hold one, and the benchmark). */
export function analyzeWith(parser: Parser, line: string, cwd: string, home: string): ShellAnalysis {
  const tree = parseLine(parser, line);
  if (!tree) return { commands: [], redirects: [], error: "the command line could not be parsed" };
  try {
    if (tree.rootNode.hasError) return { commands: [], redirects: [], error: parseError(tree.rootNode) };
    const walker = new Walker(parser);
    walker.sequence(tree.rootNode, rootScope(resolve(cwd), resolve(home)));
    return finish(walker);
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
