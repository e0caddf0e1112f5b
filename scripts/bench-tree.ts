// A generated repository for the search figures: 100,000 files in about 400 MB, made the same way
// each time (a seeded generator), kept in a cache folder between runs (the first run writes it in
// some tens of seconds; later runs find its marker and reuse it).
//
// How it is made: a `.git` folder at the top (a repository root) and 20 top folders x 25 folders x
// 4 subfolders = 2,000 leaf folders of 50 files each. A file's kind rotates through md (34%), ts
// (33%), json (17%) and txt (16%); its size is 1-7 KiB of generated source-like lines (4 KiB on
// average); one file in 40 holds a `TODO` line. A `.gitignore` at the top ignores `*.log` and `dist/`,
// and every 10th top folder has a `dist/` of 50 files (not in the count) that both searches skip.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const TREE = { files: 100_000, md: 34_000, todoEvery: 40 } as const;
const VERSION = 1;
const TOPS = 20;
const MIDS = 25;
const LEAVES = 4;
const PER_FOLDER = TREE.files / (TOPS * MIDS * LEAVES);
const KINDS = ["md", "ts", "json", "txt"] as const;

/** The generated tree's folder, written first when the cache does not hold it yet. */
export function benchTree(): string {
  const cache = process.env.REIN_BENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "rein-bench");
  const root = join(cache, `tree-100k-v${VERSION}`);
  const marker = join(root, ".git", "rein-bench-complete");
  if (existsSync(marker)) return root;
  rmSync(root, { recursive: true, force: true });
  console.error(`search: generating ${TREE.files} files in ${root}`);
  const started = performance.now();
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, ".gitignore"), "*.log\ndist/\n");
  const random = seeded(37);
  let n = 0;
  for (let t = 0; t < TOPS; t++) {
    const top = join(root, `pkg${t}`);
    if (t % 10 === 0) plantFolder(join(top, "dist"), PER_FOLDER, () => `bundle ${t} TODO\n`);
    for (let m = 0; m < MIDS; m++) {
      for (let l = 0; l < LEAVES; l++) {
        const folder = join(top, `mod${m}`, `part${l}`);
        mkdirSync(folder, { recursive: true });
        for (let f = 0; f < PER_FOLDER; f++, n++) {
          const kind = kindOf(n);
          writeFileSync(join(folder, `file${f}.${kind}`), content(random, n));
        }
      }
    }
  }
  writeFileSync(marker, `${n} files\n`);
  console.error(`search: generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return root;
}

/** md for 34 of each 100, ts 33, json 17, txt 16. */
function kindOf(n: number): (typeof KINDS)[number] {
  const r = n % 100;
  return r < 34 ? "md" : r < 67 ? "ts" : r < 84 ? "json" : "txt";
}

function plantFolder(folder: string, count: number, text: () => string): void {
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < count; i++) writeFileSync(join(folder, `chunk${i}.js`), text());
}

const WORDS = ["const", "value", "return", "export", "function", "import", "items", "result", "config", "session", "handler", "buffer", "await", "string", "number"];

function content(random: () => number, n: number): string {
  const target = 1024 + Math.floor(random() * 6 * 1024);
  const todoAt = n % TREE.todoEvery === 0 ? Math.floor(target / 2) : -1;
  const lines: string[] = [];
  let size = 0;
  let todo = todoAt >= 0;
  while (size < target) {
    const words = Array.from({ length: 4 + Math.floor(random() * 8) }, () => WORDS[Math.floor(random() * WORDS.length)]);
    const here = todo && size >= todoAt;
    if (here) todo = false;
    const line = here ? `// TODO: ${words.join(" ")}` : `${words.join(" ")};`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

/** mulberry32: the same tree on every machine. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
