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
type Binding = {
  instantiateWasm: (imports: Parameters<typeof WebAssembly.instantiate>[1], receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;
  loadWebAssemblyModule?: (binary: WebAssembly.Module, flags: object) => SideModule;
  HEAPU8?: Uint8Array;
};

async function load(): Promise<Parser> {
  // Both wasm compiles start first, so that what the engine compiles off the main thread overlaps the
  // import of web-tree-sitter's JS and the other compile; the runtime is then instantiated from its
  // compiled module (emscripten's instantiateWasm hook) instead of compiled inside Parser.init.
  const files = Promise.all([readFile(runtimeWasm), readFile(bashWasm), readFile(bashData)]);
  const runtime = files.then(([bytes]) => WebAssembly.compile(bytes));
  const grammar = files.then(([, bytes]) => WebAssembly.compile(bytes));
  grammar.catch(() => {}); // awaited below; a failure of both is reported once
  const { Language, Parser } = await import("web-tree-sitter");
  const module = await runtime;
  const binding: Binding = {
    instantiateWasm: (imports, receive) => {
      receive(new WebAssembly.Instance(module, imports), module);
      return {};
    },
  };
  await Parser.init(binding);
  const [, , data] = await files;
  const grammarModule = await grammar;
  // Language.loadSync loads the side module through the binding's loader: the tables are written in
  // once it is placed (tree_sitter_bash returns where the language struct lies in them), and the data
  // relocations run again over them (__wasm_call_ctors runs only those; they are absolute stores).
  const loader = binding.loadWebAssemblyModule;
  if (!loader) throw new Error("web-tree-sitter's runtime has no side-module loader");
  binding.loadWebAssemblyModule = (binary, flags) => {
    const side = loader(binary, flags);
    const base = side.tree_sitter_bash() - layout.languageOffset;
    binding.HEAPU8!.set(data, base);
    side.__wasm_call_ctors();
    return side;
  };
  let language;
  try {
    language = Language.loadSync(grammarModule);
  } finally {
    binding.loadWebAssemblyModule = loader;
  }
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
