// Seeded, reproducible random and mutated shell lines (corpus lines with characters inserted, removed,
// swapped, repeated and spliced), shared by the fuzz test and the grammar's differential test.
import { CORPUS } from "./corpus.ts";

const ALPHABET = "abcdefghijklmnopqrstuvwxyzRM0123456789 \t\n;&|<>()$`'\"\\{}[]*?~!#=-+/.:,%^@";

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomLines(seed: number): () => string {
  const random = prng(seed);
  const int = (n: number) => Math.floor(random() * n);
  const char = () => ALPHABET[int(ALPHABET.length)]!;
  const corpusLine = () => CORPUS[int(CORPUS.length)]!.line;
  const mutate = (line: string): string => {
    const at = int(line.length + 1);
    switch (int(5)) {
      case 0:
        return line.slice(0, at) + char() + line.slice(at);
      case 1:
        return line.slice(0, at) + line.slice(at + 1);
      case 2:
        return at + 1 < line.length ? line.slice(0, at) + line[at + 1] + line[at] + line.slice(at + 2) : line + char();
      case 3:
        return line.slice(0, at) + line.slice(int(line.length), int(line.length + 1) + 8) + line.slice(at);
      default:
        return line.slice(0, at) + corpusLine().slice(int(10));
    }
  };
  return () => {
    if (random() < 0.25) return Array.from({ length: 1 + int(80) }, char).join("");
    let line = corpusLine();
    for (let n = 1 + int(6); n > 0; n--) line = mutate(line);
    return line;
  };
}
