import { Parser, Language } from "web-tree-sitter";
import { readFileSync } from "node:fs";
const mode = process.argv[2];
const t0 = performance.now();
const rt = readFileSync("node_modules/web-tree-sitter/web-tree-sitter.wasm");
const lb = readFileSync("node_modules/tree-sitter-bash/tree-sitter-bash.wasm");
let lang: Language;
if (mode === "A") {
  await Parser.init({ wasmBinary: rt } as never);
  lang = await Language.load(lb);
} else if (mode === "B") {
  const rtMod = new WebAssembly.Module(rt);
  await Parser.init({ instantiateWasm(imports: WebAssembly.Imports, cb: (i: WebAssembly.Instance, m: WebAssembly.Module) => void) { cb(new WebAssembly.Instance(rtMod, imports), rtMod); return {}; } } as never);
  lang = Language.loadSync(new WebAssembly.Module(lb));
} else {
  const langP = WebAssembly.compile(lb);
  await Parser.init({ wasmBinary: rt } as never);
  lang = Language.loadSync(await langP);
}
const p = new Parser(); p.setLanguage(lang);
const tree = p.parse("ls -la && echo hi")!; tree.delete();
console.log(mode, (performance.now() - t0).toFixed(1));
