import { readFileSync } from "node:fs";
const f = process.argv[2]!;
const b = readFileSync(f);
const t = performance.now();
WebAssembly.validate(b);
console.log(f, b.length, (performance.now() - t).toFixed(1));
