// Where the shell parser's load goes, step by step in a fresh process (`bun scripts/bench-parser-steps.ts`
// prints one JSON line): the steps src/permission/shell/parser.ts overlaps, run here one after the
// other through its own functions, each with its wall time, CPU time and minor page faults (on a VM a
// fault can cost tens of µs).
import { loadGrammar, readParserFiles, runtimeBinding } from "../src/permission/shell/parser.ts";

export type Step = { step: string; ms: number; cpuMs: number; faults: number };

async function steps(): Promise<Step[]> {
  const out: Step[] = [];
  const now = () => {
    const cpu = process.cpuUsage();
    return { t: performance.now(), cpu: (cpu.user + cpu.system) / 1000, faults: process.resourceUsage().minorPageFault };
  };
  let last = now();
  const mark = (step: string) => {
    const at = now();
    out.push({ step, ms: at.t - last.t, cpuMs: at.cpu - last.cpu, faults: at.faults - last.faults });
    last = now();
  };
  const [runtimeBytes, grammarBytes, data] = await readParserFiles();
  mark("read the three files");
  const runtime = await WebAssembly.compile(runtimeBytes);
  mark("compile the runtime wasm");
  const grammar = await WebAssembly.compile(grammarBytes);
  mark("compile the grammar wasm");
  const tree = await import("web-tree-sitter");
  mark("import web-tree-sitter's JS");
  const binding = runtimeBinding(runtime);
  await tree.Parser.init(binding);
  mark("Parser.init (instantiate the runtime)");
  const parser = new tree.Parser();
  parser.setLanguage(loadGrammar(tree, binding, grammar, data));
  mark("load the grammar (instantiate, write its tables, relocate)");
  parser.parse("ls -la | wc -l")?.delete();
  mark("first parse");
  return out;
}

if (import.meta.main) console.log(JSON.stringify(await steps()));
