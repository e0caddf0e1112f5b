import { expect, test } from "bun:test";
import { editPreviewLines } from "../../../src/cli/edit-preview.ts";

const file = ["import a from 'a';", "", "function f() {", "  const b = 2;", "  return a + b;", "}", "", "export { f };", ""].join("\n");

test("with the file: a hunk at the first match, the whole lines it spans, and two of the file's lines around", () => {
  expect(editPreviewLines({ path: "f.ts", old_string: "b = 2", new_string: "b = 3" }, file)).toEqual([
    "@@ -2,5 +2,5 @@",
    " ",
    " function f() {",
    "-  const b = 2;",
    "+  const b = 3;",
    "   return a + b;",
    " }",
  ]);
});

test("a replacement over several lines, at the top of the file; CRLF files match as LF", () => {
  const input = { path: "f.ts", old_string: "import a from 'a';\r\n\r\nfunction f() {", new_string: "import a from 'a';\r\nfunction g() {" };
  expect(editPreviewLines(input, file.replaceAll("\n", "\r\n"))).toEqual([
    "@@ -1,5 +1,4 @@",
    " import a from 'a';",
    "-",
    "-function f() {",
    "+function g() {",
    "   const b = 2;",
    "   return a + b;",
  ]);
});

test("replace_all names the other occurrences; without the file, or when old_string is not in it, the input alone is shown", () => {
  expect(editPreviewLines({ path: "f.ts", old_string: "a", new_string: "z", replace_all: true }, "a\nb\na\na\n")[0]).toBe("@@ -1,3 +1,3 @@ and 2 more occurrences");
  expect(editPreviewLines({ path: "f.ts", old_string: "end", new_string: "END" }, "x\nend\n")).toEqual(["@@ -1,2 +1,2 @@", " x", "-end", "+END"]);
  expect(editPreviewLines({ path: "f.ts", old_string: "x = 1", new_string: "x = 2" })).toEqual(["-x = 1", "+x = 2"]);
  expect(editPreviewLines({ path: "f.ts", old_string: "x = 1", new_string: "x = 2" }, file)).toEqual(["-x = 1", "+x = 2"]);
  expect(editPreviewLines({ path: "f.ts", old_string: "x", new_string: "y", replace_all: true })[0]).toBe("@@ every occurrence @@");
  expect(editPreviewLines({ path: "f.ts" }, file)).toEqual([]);
});
