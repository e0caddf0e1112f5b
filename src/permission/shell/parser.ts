// Loads tree-sitter-bash once, the first time a line is analysed. Both wasm files are embedded with
// `type: "file"` and read as bytes: a plain `Parser.init()` looks for its runtime wasm on disk, which
// fails inside the compiled binary. The grammar is our own build of the package's C (`bun run grammar`,
// scripts/grammar/): it compiles in about half the time of the package's wasm and parses identically.
import { readFile } from "node:fs/promises";
import { Language, Parser } from "web-tree-sitter";
import runtimeWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import bashWasm from "./grammar/tree-sitter-bash.wasm" with { type: "file" };

let loading: Promise<Parser> | undefined;

/** The shared bash parser. Callers may start it early (it is idempotent) to hide the load time. */
export function loadShellParser(): Promise<Parser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<Parser> {
  const [runtime, grammar] = await Promise.all([readFile(runtimeWasm), readFile(bashWasm)]);
  // Start compiling the grammar (about a third of the load) first, so it overlaps the runtime's start-up.
  const language = WebAssembly.compile(grammar);
  await Parser.init({ wasmBinary: runtime });
  const parser = new Parser();
  parser.setLanguage(Language.loadSync(await language));
  return parser;
}
