import { Parser, Language } from "web-tree-sitter";
const t0 = performance.now();
await Parser.init();
const lang = await Language.load("/work/main/node_modules/tree-sitter-bash/tree-sitter-bash.wasm");
const p = new Parser(); p.setLanguage(lang);
console.log("load ms", performance.now() - t0);
for (const line of process.argv.slice(2)) {
  const tree = p.parse(line)!;
  console.log(line, "\n", tree.rootNode.toString());
  tree.delete();
}
