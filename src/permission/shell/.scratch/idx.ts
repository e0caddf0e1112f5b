import { Parser, Language } from "web-tree-sitter";
await Parser.init();
const lang = await Language.load("/work/main/node_modules/tree-sitter-bash/tree-sitter-bash.wasm");
const p = new Parser(); p.setLanguage(lang);
function dump(n: any, d = 0) { console.log(" ".repeat(d) + (n.isNamed ? n.type : JSON.stringify(n.type)), n.startIndex, n.endIndex, JSON.stringify(n.text), n.isMissing ? "MISSING" : ""); for (const c of n.children) dump(c, d + 2); }
for (const line of process.argv.slice(2)) { const t = p.parse(line)!; console.log("hasError", t.rootNode.hasError); dump(t.rootNode); t.delete(); }
