// Loads tree-sitter-bash once, the first time a line needs it. The wasm files are embedded with
// `type: "file"` and read as bytes: a plain `Parser.init()` looks for its runtime wasm on disk, which
// fails inside the compiled binary. The grammar is our own build of the package's C (`bun run grammar`,
// scripts/grammar/): it compiles in about half the time of the package's wasm and parses identically.
// Its tables are a file of their own (tree-sitter-bash.data, see scripts/grammar/detach-data.ts),
// written into the grammar's memory here: compiling them as a data segment cost a fifth of the load.
// web-tree-sitter's JS is imported here, at the load, not with the module: a line of plain words is
// analysed without it (literal-line.ts).
import { readFile } from "node:fs/promises";
import type { Parser } from "web-tree-sitter";
import runtimeWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import bashData from "./grammar/tree-sitter-bash.data" with { type: "file" };
import bashWasm from "./grammar/tree-sitter-bash.wasm" with { type: "file" };
import layout from "./grammar/source.json" with { type: "json" };

let loading: Promise<Parser> | undefined;

/** The shared bash parser. Callers may start it early (it is idempotent) to hide the load time. */
export function loadShellParser(): Promise<Parser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

type SideModule = { tree_sitter_bash: () => number; __wasm_call_ctors: () => void };
/** What emscripten leaves on the module object it is given (web-tree-sitter's `C`). */
export type Binding = {
  instantiateWasm: (imports: Parameters<typeof WebAssembly.instantiate>[1], receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;
  loadWebAssemblyModule?: (binary: WebAssembly.Module, flags: object) => SideModule;
  HEAPU8?: Uint8Array;
};
type Tree = typeof import("web-tree-sitter");

/** The three embedded files, read. */
export function readParserFiles(): Promise<[runtime: Buffer, grammar: Buffer, data: Buffer]> {
  return Promise.all([readFile(runtimeWasm), readFile(bashWasm), readFile(bashData)]);
}

/** Module options for Parser.init that instantiate the runtime from its compiled module (emscripten's instantiateWasm hook). */
export function runtimeBinding(module: WebAssembly.Module): Binding {
  return {
    instantiateWasm: (imports, receive) => {
      receive(new WebAssembly.Instance(module, imports), module);
      return {};
    },
  };
}

/**
 * The grammar, loaded through the binding Parser.init filled: Language.loadSync loads the side
 * module with the binding's loader, and the tables are written in once it is placed (tree_sitter_bash
 * returns where the language struct lies in them); the data relocations then run again over them
 * (__wasm_call_ctors runs only those; they are absolute stores).
 */
export function loadGrammar(tree: Tree, binding: Binding, grammar: WebAssembly.Module, data: Uint8Array): InstanceType<Tree["Language"]> {
  const loader = binding.loadWebAssemblyModule;
  if (!loader) throw new Error("web-tree-sitter's runtime has no side-module loader");
  binding.loadWebAssemblyModule = (binary, flags) => {
    const side = loader(binary, flags);
    binding.HEAPU8!.set(data, side.tree_sitter_bash() - layout.languageOffset);
    side.__wasm_call_ctors();
    return side;
  };
  try {
    return tree.Language.loadSync(grammar);
  } finally {
    binding.loadWebAssemblyModule = loader;
  }
}

async function load(): Promise<Parser> {
  // Both wasm compiles start first, so that what the engine compiles off the main thread overlaps the
  // import of web-tree-sitter's JS and the other compile.
  const files = readParserFiles();
  const runtime = files.then(([bytes]) => WebAssembly.compile(bytes));
  const grammar = files.then(([, bytes]) => WebAssembly.compile(bytes));
  grammar.catch(() => {}); // awaited below; a failure of both is reported once
  const tree = await import("web-tree-sitter");
  const binding = runtimeBinding(await runtime);
  await tree.Parser.init(binding);
  const language = loadGrammar(tree, binding, await grammar, (await files)[2]);
  const parser = new tree.Parser();
  parser.setLanguage(language);
  return parser;
}
