// Loads tree-sitter-bash once, the first time a line is analysed. Both wasm files are embedded with
// `type: "file"` and read as bytes: a plain `Parser.init()` looks for its runtime wasm on disk, which
// fails inside the compiled binary. The grammar is our own build of the package's C (`bun run grammar`,
// scripts/grammar/): it compiles in about half the time of the package's wasm and parses identically.
// web-tree-sitter's JS is imported here, at the load, not with the module: a line of plain words is
// analysed without it (literal-line.ts).
import { readFile } from "node:fs/promises";
import type { Parser } from "web-tree-sitter";
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
  // Both wasm compiles start first, so that what the engine compiles off the main thread overlaps the
  // import of web-tree-sitter's JS and the other compile; the runtime is then instantiated from its
  // compiled module (emscripten's instantiateWasm hook) instead of compiling it inside Parser.init.
  const files = Promise.all([readFile(runtimeWasm), readFile(bashWasm)]);
  const runtime = files.then(([bytes]) => WebAssembly.compile(bytes));
  const grammar = files.then(([, bytes]) => WebAssembly.compile(bytes));
  grammar.catch(() => {}); // awaited below; a failure of both is reported once
  const { Language, Parser } = await import("web-tree-sitter");
  const module = await runtime;
  await Parser.init({
    instantiateWasm: (imports: Parameters<typeof WebAssembly.instantiate>[1], receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
      receive(new WebAssembly.Instance(module, imports), module);
      return {};
    },
  });
  const parser = new Parser();
  parser.setLanguage(Language.loadSync(await grammar));
  return parser;
}
