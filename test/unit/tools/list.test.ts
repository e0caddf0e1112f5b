// The list tool on real folders: the tree's shape, what it skips, its depth and entry bounds.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import list from "../../../tools/list.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { toolContext, toolOutcome as outcome } from "../../support/tool-context.ts";

let dir: TempDir;
beforeEach(() => {
  dir = tempDir("rein-list-");
  // A repository root, so no .gitignore above the temp folder takes part.
  mkdirSync(join(dir.path, ".git"));
});
afterEach(() => dir.remove());

function plant(files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir.path, rel)), { recursive: true });
    writeFileSync(join(dir.path, rel), content);
  }
}


async function run(input: unknown, ctx = toolContext(dir.path)) {
  return outcome(await list.run(v.parse(list.input, input), ctx));
}

describe("list: the tree", () => {
  test("a name with a line break is printed escaped on its own line", async () => {
    plant({ "dir\nx/in.txt": "", "ok.txt": "" });
    expect((await run({})).output).toBe([`${dir.path}/`, '  "dir\\nx"/', "    in.txt", "  ok.txt"].join("\n"));
  });

  test("folders first then files, by name, indented by level, folders ending in /", async () => {
    plant({ "b.txt": "", "a.txt": "", "src/z.ts": "", "src/lib/x.ts": "", "docs/readme.md": "" });
    mkdirSync(join(dir.path, "empty"));
    expect(await run({})).toEqual({
      output: [`${dir.path}/`, "  docs/", "    readme.md", "  empty/", "  src/", "    lib/", "      x.ts", "    z.ts", "  a.txt", "  b.txt"].join("\n"),
      isError: false,
    });
    expect((await run({ path: "src" })).output).toBe([`${dir.path}/src/`, "  lib/", "    x.ts", "  z.ts"].join("\n"));
  });

  test("skips .git, node_modules and gitignored entries, root and nested, with negation", async () => {
    plant({
      ".gitignore": "dist/\n*.log\n!keep.log\n",
      "dist/bundle.js": "",
      "a.log": "",
      "keep.log": "",
      "node_modules/dep/index.js": "",
      "pkg/.gitignore": "/cache\n",
      "pkg/cache/blob": "",
      "pkg/src/cache": "a file deeper down is not anchored to pkg",
    });
    expect((await run({})).output).toBe(
      [`${dir.path}/`, "  pkg/", "    src/", "      cache", "    .gitignore", "  .gitignore", "  keep.log"].join("\n"),
    );
  });

  test("a symlinked folder is shown but not followed", async () => {
    plant({ "real/a.txt": "" });
    symlinkSync(dir.path, join(dir.path, "real/loop"));
    expect((await run({ depth: 6 })).output).toBe([`${dir.path}/`, "  real/", "    a.txt", "    loop"].join("\n"));
  });

  test("an empty folder says so", async () => {
    expect((await run({})).output).toBe(`${dir.path}/\n  (empty)`);
  });
});

describe("list: bounds", () => {
  test("depth defaults to 3, goes as deep as asked, and stops at 6", async () => {
    plant({ "a/b/c/d/e/f/g/h.txt": "" });
    const shown = async (depth?: number) => (await run(depth === undefined ? {} : { depth })).output.split("\n").slice(1);
    expect(await shown()).toEqual(["  a/", "    b/", "      c/"]);
    expect(await shown(1)).toEqual(["  a/"]);
    expect((await shown(6)).at(-1)).toBe(`${"  ".repeat(6)}f/`);
    expect(v.safeParse(list.input, { depth: 7 }).success).toBe(false);
  });

  test("cuts at 300 entries with a note, keeping the top levels whole", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`a-big/f${String(i).padStart(3, "0")}.txt`] = "";
    for (const name of ["b", "c", "d"]) files[`${name}/file.txt`] = "";
    plant(files);
    const lines = (await run({})).output.split("\n");
    expect(lines).toHaveLength(302);
    expect(lines.slice(1, 4)).toEqual(["  a-big/", "    f000.txt", "    f001.txt"]);
    // Breadth first: the later top-level folders are there though a-big alone fills the limit.
    expect(lines.filter((line) => /^ {2}\S/.test(line))).toEqual(["  a-big/", "  b/", "  c/", "  d/"]);
    expect(lines.at(-1)).toBe("(cut at 300 entries; list a subfolder or pass a lower depth to see the rest)");
  });

  test("a missing path and a file path are errors", async () => {
    plant({ "a.txt": "" });
    expect((await run({ path: "nope" })).isError).toBe(true);
    expect(await run({ path: "a.txt" })).toEqual({ output: 'The path "a.txt" is a file, not a folder. Pass the folder that holds it as path.', isError: true });
  });

  test("an abort ends the call as interrupted", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`d${i}/e/f.txt`] = "";
    plant(files);
    const ctx = toolContext(dir.path);
    const pending = list.run({}, ctx);
    ctx.abort();
    expect(await pending).toEqual({ output: "Interrupted by the user; the search stopped.", isError: true });
  });
});
