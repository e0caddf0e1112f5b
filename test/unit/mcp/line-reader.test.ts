// The stdio line reader: lines split across chunks and several in one chunk, CRLF, the bound on an
// unfinished line (past it the reader says so and drops what it held), and a long line read in
// linear time (many chunks of one line do not each copy what came before).
import { expect, test } from "bun:test";
import { LineReader } from "../../../src/mcp/line-reader.ts";

const reader = (max = 1024) => {
  const lines: string[] = [];
  return { lines, r: new LineReader(max, (line) => lines.push(line)) };
};

test("lines across chunks and several in one chunk come out whole, CRLF taken off", () => {
  const { lines, r } = reader();
  expect(r.push(Buffer.from('{"a":'))).toBe(true);
  expect(r.push(Buffer.from('1}\n{"b":2}\r\n{"c"'))).toBe(true);
  expect(r.push(Buffer.from(":3}\n"))).toBe(true);
  expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
});

test("an unfinished line past the bound fails, at the newline or before it; a line at the bound passes", () => {
  const { lines, r } = reader(8);
  expect(r.push(Buffer.from("12345678\n"))).toBe(true);
  expect(r.push(Buffer.from("12345"))).toBe(true);
  expect(r.push(Buffer.from("6789"))).toBe(false);
  const late = reader(8);
  expect(late.r.push(Buffer.from("123456789\n"))).toBe(false);
  expect(lines).toEqual(["12345678"]);
  expect(late.lines).toEqual([]);
});

test("a 16 MiB line in 64 KiB chunks is read once and handed on whole", () => {
  const { lines, r } = reader(128 * 1024 * 1024);
  const chunk = Buffer.alloc(64 * 1024, "x".charCodeAt(0));
  for (let i = 0; i < 256; i++) expect(r.push(chunk)).toBe(true);
  expect(r.push(Buffer.from("\n"))).toBe(true);
  expect(lines).toHaveLength(1);
  expect(lines[0]!.length).toBe(16 * 1024 * 1024);
});
