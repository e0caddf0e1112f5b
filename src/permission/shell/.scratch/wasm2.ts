import { readFileSync } from "node:fs";
const rt = readFileSync("node_modules/web-tree-sitter/web-tree-sitter.wasm");
const lb = readFileSync("node_modules/tree-sitter-bash/tree-sitter-bash.wasm");
const which = process.argv[2];
let t = performance.now();
if (which === "sync") new WebAssembly.Module(lb); else if (which==="async") await WebAssembly.compile(lb); else if (which==="both") { await Promise.all([WebAssembly.compile(lb), WebAssembly.compile(rt)]); }
else { const v = WebAssembly.validate(lb); }
console.log(which, performance.now() - t);
