// `bun run grammar`: rebuilds src/permission/shell/grammar/tree-sitter-bash.wasm from the C sources of
// the installed tree-sitter-bash package. The npm package ships a wasm built at -O0 with one huge lexer
// function, which Bun takes ~50 ms to compile; this build (lexer split, -Os, see split-lexer.ts) loads
// in about half the time and parses identically (test/unit/permission/shell/grammar.test.ts). The
// linked wasm's data segment (the tables) is then written to tree-sitter-bash.data and taken out of
// the wasm (detach-data.ts): the loader writes it into memory itself, cheaper than JSC compiling it.
//
// Needs clang and wasm-ld (Debian/Ubuntu: `apt-get install clang lld`). The output is committed, so
// building rein, the tests and CI never need them; run this only when tree-sitter-bash is upgraded.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { detachData } from "./detach-data.ts";
import { splitLexer } from "./split-lexer.ts";

const CHUNK = 16;
const root = join(import.meta.dir, "../..");
const pkg = join(root, "node_modules/tree-sitter-bash");
const outDir = join(root, "src/permission/shell/grammar");
const cflags = ["--target=wasm32-unknown-emscripten", "-Os", "-fPIC", "-fvisibility=hidden", "-nostdlibinc", "-isystem", join(import.meta.dir, "include"), "-I", join(pkg, "src")];
const ldflags = ["--shared", "--experimental-pic", "--export=tree_sitter_bash", "--strip-debug"];

function run(cmd: string[]): string {
  let proc;
  try {
    proc = Bun.spawnSync(cmd, { stderr: "pipe", stdout: "pipe" });
  } catch {
    throw new Error(`${cmd[0]} not found: install clang and lld (Debian/Ubuntu: apt-get install clang lld)`);
  }
  if (proc.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed:\n${proc.stderr.toString()}`);
  return proc.stdout.toString();
}

const sha256 = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

const parserC = readFileSync(join(pkg, "src/parser.c"), "utf8");
const scannerC = readFileSync(join(pkg, "src/scanner.c"));
const split = splitLexer(parserC, CHUNK);
const work = mkdtempSync(join(tmpdir(), "rein-grammar-"));
try {
  build();
} catch (error) {
  console.error(`bun run grammar: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

function build(): void {
  writeFileSync(join(work, "parser.c"), split.text);
  writeFileSync(join(work, "scanner.c"), scannerC);
  const clang = run(["clang", "--version"]).split("\n")[0]!;
  // Paths reach the wasm through assert's __FILE__: strip them so the build is reproducible.
  const compile = (name: string) =>
    run(["clang", ...cflags, `-fmacro-prefix-map=${work}/=`, `-fmacro-prefix-map=${root}/=`, "-c", join(work, `${name}.c`), "-o", join(work, `${name}.o`)]);
  compile("parser");
  compile("scanner");
  const wasm = join(outDir, "tree-sitter-bash.wasm");
  const linkedPath = join(work, "tree-sitter-bash.wasm");
  run(["wasm-ld", ...ldflags, "-o", linkedPath, join(work, "parser.o"), join(work, "scanner.o")]);
  const linked = readFileSync(linkedPath);
  const detached = detachData(linked);
  writeFileSync(wasm, detached.wasm);
  writeFileSync(join(outDir, "tree-sitter-bash.data"), detached.data);
  const source = {
    package: "tree-sitter-bash",
    version: JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version as string,
    parserSha256: sha256(parserC),
    scannerSha256: sha256(scannerC),
    compiler: clang,
    cflags: cflags.map((flag) => (flag.startsWith(root) ? relative(root, flag) : flag)),
    ldflags,
    lexerChunk: CHUNK,
    linkedSha256: sha256(linked),
    wasmSha256: sha256(Buffer.from(detached.wasm)),
    dataSha256: sha256(Buffer.from(detached.data)),
    languageOffset: detached.languageOffset,
  };
  writeFileSync(join(outDir, "source.json"), `${JSON.stringify(source, null, 2)}\n`);
  console.log(`tree-sitter-bash ${source.version}: ${split.states} lexer states in ${split.functions} functions -> ${wasm}`);
}
