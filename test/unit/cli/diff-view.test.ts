import { expect, test } from "bun:test";
import { diffRows, previewRows } from "../../../src/cli/diff-view.ts";

const plain = { color: false };
const color = { color: true };
const ESC = "\u001b";
const diff = ["--- /p/a.ts", "+++ /p/a.ts", "@@ -1,3 +1,3 @@", " const a = 1;", "-const b = 2;", "+const b = 3;", " export { a, b };"].join("\n");

test("edit: the hunks without the ---/+++ header", () => {
  expect(diffRows("edit", {}, { diff }, 80, 20, plain)).toEqual(["@@ -1,3 +1,3 @@", " const a = 1;", "-const b = 2;", "+const b = 3;", " export { a, b };"]);
});

test("colors: removed red, added green, hunk header cyan, context dim", () => {
  expect(diffRows("edit", {}, { diff }, 80, 20, color)).toEqual([
    `${ESC}[36m@@ -1,3 +1,3 @@${ESC}[39m`,
    `${ESC}[2m const a = 1;${ESC}[22m`,
    `${ESC}[31m-const b = 2;${ESC}[39m`,
    `${ESC}[32m+const b = 3;${ESC}[39m`,
    `${ESC}[2m export { a, b };${ESC}[22m`,
  ]);
});

test("a removed line that itself starts with -- is kept, and is red", () => {
  const sql = "--- /p/q.sql\n+++ /p/q.sql\n@@ -1,1 +1,1 @@\n--- old comment\n+-- new comment";
  expect(diffRows("edit", {}, { diff: sql }, 80, 20, plain)).toEqual(["@@ -1,1 +1,1 @@", "--- old comment", "+-- new comment"]);
  expect(diffRows("edit", {}, { diff: sql }, 80, 20, color)[1]).toBe(`${ESC}[31m--- old comment${ESC}[39m`);
});

test("at most maxRows rows, then a dim count of the rest", () => {
  expect(diffRows("edit", {}, { diff }, 80, 3, plain)).toEqual(["@@ -1,3 +1,3 @@", " const a = 1;", "-const b = 2;", "… 2 more lines"]);
  expect(diffRows("edit", {}, { diff }, 80, 4, plain).at(-1)).toBe("… 1 more line");
  expect(diffRows("edit", {}, { diff }, 80, 4, color).at(-1)).toBe(`${ESC}[2m… 1 more line${ESC}[22m`);
});

test("each row is cut to the width; tabs become two spaces; escape sequences from the file are dropped", () => {
  const wide = `--- a\n+++ a\n@@ -1,1 +1,1 @@\n-\tif (x) {\n+${"y".repeat(50)}\n+${ESC}[2Jcleared`;
  expect(diffRows("edit", {}, { diff: wide }, 20, 20, plain)).toEqual(["@@ -1,1 +1,1 @@", "-  if (x) {", `+${"y".repeat(18)}…`, "+[2Jcleared"]);
});

test("write: the first lines of the new content as added lines", () => {
  const content = "line 1\nline 2\n\tline 3\nline 4\n";
  expect(diffRows("write", { path: "a", content }, undefined, 80, 3, plain)).toEqual(["+line 1", "+line 2", "+  line 3", "… 1 more line"]);
  expect(diffRows("write", { path: "a", content: "a\r\nb" }, undefined, 80, 10, plain)).toEqual(["+a", "+b"]);
});

test("nothing to show: other tools, an edit without a diff (a failed one), an empty write", () => {
  expect(diffRows("bash", { command: "ls" }, { diff }, 80, 20, plain)).toEqual([]);
  expect(diffRows("edit", { path: "a" }, undefined, 80, 20, plain)).toEqual([]);
  expect(diffRows("edit", { path: "a" }, { diff: 42 }, 80, 20, plain)).toEqual([]);
  expect(diffRows("write", { path: "a", content: "" }, undefined, 80, 20, plain)).toEqual([]);
  expect(diffRows("write", { path: "a" }, undefined, 80, 20, plain)).toEqual([]);
});

test("preview of an edit from its input: shared lines at either end are context (two at most), the rest removed then added", () => {
  const input = { path: "a.ts", old_string: "a\nb\nc\nold 1\nold 2\nz", new_string: "a\nb\nc\nnew\nz" };
  expect(previewRows("edit", input, 80, 20, plain)).toEqual([" b", " c", "-old 1", "-old 2", "+new", " z"]);
  expect(previewRows("edit", { ...input, replace_all: true }, 80, 20, plain)[0]).toBe("@@ every occurrence @@");
  expect(previewRows("edit", { path: "a", old_string: "x", new_string: "" }, 80, 20, plain)).toEqual(["-x", "+"]);
  expect(previewRows("edit", input, 80, 3, plain)).toEqual([" b", " c", "-old 1", "… 3 more lines"]);
});

test("preview of a write is the head of its content; other tools and bad input show nothing", () => {
  expect(previewRows("write", { path: "a", content: "one\ntwo\nthree\n" }, 80, 2, plain)).toEqual(["+one", "+two", "… 1 more line"]);
  expect(previewRows("edit", { path: "a" }, 80, 20, plain)).toEqual([]);
  expect(previewRows("bash", { command: "ls" }, 80, 20, plain)).toEqual([]);
});
