// rein embeds its own build of tree-sitter-bash (scripts/grammar/): these tests hold it to the npm
// package it was built from. It must come from the installed version's exact sources, and parse every
// line, whatever it holds, into the same tree as the package's own wasm.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "bun:test";
import { Language, type Node, Parser } from "web-tree-sitter";
import { detachData } from "../../../../scripts/grammar/detach-data.ts";
import { loadShellParser } from "../../../../src/permission/shell/parser.ts";
import { CORPUS } from "./corpus.ts";
import { randomLines } from "./random-lines.ts";

const ROOT = join(import.meta.dir, "../../../..");
const PACKAGE = join(ROOT, "node_modules/tree-sitter-bash");
const GRAMMAR = join(ROOT, "src/permission/shell/grammar");
const REBUILD = "the embedded grammar is stale: run `bun run grammar` (needs clang and lld) and commit the result";
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("the embedded grammar's provenance", () => {
  const source = JSON.parse(readFileSync(join(GRAMMAR, "source.json"), "utf8")) as Record<string, unknown>;

  test("built from the installed tree-sitter-bash's sources", () => {
    const installed = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as { version: string };
    expect({ version: source.version, parser: source.parserSha256, scanner: source.scannerSha256 }, REBUILD).toEqual({
      version: installed.version,
      parser: sha256(join(PACKAGE, "src/parser.c")),
      scanner: sha256(join(PACKAGE, "src/scanner.c")),
    });
  });

  test("the committed wasm and its tables are the ones the build wrote", () => {
    expect(sha256(join(GRAMMAR, "tree-sitter-bash.wasm")), REBUILD).toBe(source.wasmSha256 as string);
    expect(sha256(join(GRAMMAR, "tree-sitter-bash.data")), REBUILD).toBe(source.dataSha256 as string);
  });

  test("the tables put back as the wasm's data segment give the wasm the build linked, and detaching them again gives the committed pair", () => {
    const wasm = readFileSync(join(GRAMMAR, "tree-sitter-bash.wasm"));
    const data = readFileSync(join(GRAMMAR, "tree-sitter-bash.data"));
    const linked = attachData(wasm, data);
    expect(createHash("sha256").update(linked).digest("hex")).toBe(source.linkedSha256 as string);
    const again = detachData(linked);
    expect([Buffer.from(again.wasm).equals(wasm), Buffer.from(again.data).equals(data), again.languageOffset]).toEqual([true, true, source.languageOffset as number]);
  });
});

/** The wasm with `data` as one active segment at __memory_base (global 1) after its code section, as wasm-ld writes it. */
function attachData(wasm: Buffer, data: Buffer): Buffer {
  const leb = (n: number) => {
    const out: number[] = [];
    do {
      out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      n = Math.floor(n / 128);
    } while (n > 0);
    return Buffer.from(out);
  };
  const body = Buffer.concat([Buffer.from([1, 0, 0x23, 1, 0x0b]), leb(data.length), data]);
  const section = Buffer.concat([Buffer.from([11]), leb(body.length), body]);
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at]!;
    let size = 0;
    let shift = 0;
    let p = at + 1;
    for (;;) {
      const byte = wasm[p++]!;
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(byte & 0x80)) break;
    }
    at = p + size;
    if (id === 10) return Buffer.concat([wasm.subarray(0, at), section, wasm.subarray(at)]);
  }
  throw new Error("no code section");
}

/** Everything a walk can see: each node's kind, field, span and missing flag, in order. */
function shape(node: Node, field: string | null, out: string[]): string[] {
  out.push(`${field ?? ""}:${node.type}@${node.startIndex}-${node.endIndex}${node.isMissing ? "!" : ""}[`);
  node.children.forEach((child, index) => shape(child, node.fieldNameForChild(index), out));
  out.push("]");
  return out;
}

describe("the embedded grammar parses as the npm package's", () => {
  let ours: Parser;
  let theirs: Parser;
  beforeAll(async () => {
    ours = await loadShellParser();
    theirs = new Parser();
    theirs.setLanguage(await Language.load(readFileSync(join(PACKAGE, "tree-sitter-bash.wasm"))));
  });

  function differences(lines: string[]): { line: string; ours: string; theirs: string }[] {
    const found: { line: string; ours: string; theirs: string }[] = [];
    for (const line of lines) {
      const [a, b] = [ours.parse(line)!, theirs.parse(line)!];
      const [sa, sb] = [shape(a.rootNode, null, []).join(""), shape(b.rootNode, null, []).join("")];
      if (sa !== sb) found.push({ line, ours: a.rootNode.toString(), theirs: b.rootNode.toString() });
      a.delete();
      b.delete();
    }
    return found;
  }

  test("the shape comparison sees a difference when there is one", () => {
    // Guards the comparison itself: two different lines must not compare equal.
    const [a, b] = [ours.parse("ls | wc")!, ours.parse("ls & wc")!];
    expect(shape(a.rootNode, null, []).join("")).not.toBe(shape(b.rootNode, null, []).join(""));
    a.delete();
    b.delete();
  });

  test("the adversarial corpus", () => {
    expect(CORPUS.length).toBeGreaterThan(200);
    expect(differences(CORPUS.map((entry) => entry.line))).toEqual([]);
  });

  test("real scripts and non-ASCII words (the lexer's iswalpha/iswspace paths)", () => {
    const scripts = ["scripts/install.sh", ".ci/run"].map((path) => readFileSync(join(ROOT, path), "utf8"));
    const unicode = ["écho ünïcode 日本語 | grep ß", "x=ℵ; echo ${x}λ", "echo\u00a0hi\u2003there", "case é in é) echo ok;; esac", "𝑓() { echo 🙂; }"];
    expect(differences([...scripts, ...unicode])).toEqual([]);
  });

  // Two parsers over 20,000 lines: seconds on a loaded machine, past bun's 5 s default.
  test("20,000 random and mutated lines", () => {
    const next = randomLines(0x6a11);
    expect(differences(Array.from({ length: 20_000 }, next))).toEqual([]);
  }, 60_000);
});
