// The glob tool and the walker under it, on real folders with real .gitignore files.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import glob from "../../../tools/glob.ts";
import { walk } from "../../../tools/lib/walk.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { toolContext, toolOutcome as outcome } from "../../support/tool-context.ts";

let dir: TempDir;
beforeEach(() => {
  dir = tempDir("rein-glob-");
  // A repository root, so no .gitignore above the temp folder takes part.
  mkdirSync(join(dir.path, ".git"));
});
afterEach(() => dir.remove());

/** Writes each file (parents created); a value is the content. */
function plant(files: Record<string, string>, root = dir.path): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}


async function run(input: unknown, ctx = toolContext(dir.path)) {
  return outcome(await glob.run(v.parse(glob.input, input), ctx));
}

describe("glob: matching and order", () => {
  test("a path with a line break or another control character is printed escaped, one per line", async () => {
    plant({ "a\nb.txt": "", "tab\there.txt": "" });
    const lines = (await run({ pattern: "*.txt" })).output.split("\n").sort();
    expect(lines).toEqual(['"a\\nb.txt"', '"tab\\there.txt"']);
  });

  test("returns matching paths relative to the search folder, newest first", async () => {
    plant({ "old.ts": "", "src/mid.ts": "", "src/deep/new.ts": "", "src/notes.md": "" });
    utimesSync(join(dir.path, "old.ts"), 1_000, 1_000);
    utimesSync(join(dir.path, "src/mid.ts"), 2_000, 2_000);
    utimesSync(join(dir.path, "src/deep/new.ts"), 3_000, 3_000);
    expect(await run({ pattern: "**/*.ts" })).toEqual({ output: "src/deep/new.ts\nsrc/mid.ts\nold.ts", isError: false });
    expect((await run({ pattern: "**/*.ts", path: "src" })).output).toBe("deep/new.ts\nmid.ts");
    expect((await run({ pattern: "*.ts", path: join(dir.path, "src") })).output).toBe("mid.ts");
  });

  test("files with the same time come in path order", async () => {
    plant({ "b.txt": "", "a.txt": "", "c.txt": "" });
    for (const name of ["a.txt", "b.txt", "c.txt"]) utimesSync(join(dir.path, name), 5_000, 5_000);
    expect((await run({ pattern: "*.txt" })).output).toBe("a.txt\nb.txt\nc.txt");
  });

  test("no match says so and hints at ** for a pattern without it", async () => {
    plant({ "src/a.ts": "" });
    const result = await run({ pattern: "*.ts" });
    expect(result.isError).toBe(false);
    expect(result.output).toBe('No files match "*.ts". The pattern matches whole paths relative to the folder; use "**/*.ts" to look in subfolders too.');
  });

  test("an absolute pattern inside the folder is taken as relative", async () => {
    plant({ "src/a.ts": "" });
    expect((await run({ pattern: `${dir.path}/src/*.ts` })).output).toBe("src/a.ts");
  });

  test("caps at 100 paths with a note; past 100 they come in path order, not by time (no stat per match)", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 130; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "";
    plant(files);
    // The newest files sort last by path: a newest-first list would start with them.
    for (let i = 0; i < 130; i++) utimesSync(join(dir.path, `f${String(i).padStart(3, "0")}.txt`), 1_000_000 + i, 1_000_000 + i);
    const lines = (await run({ pattern: "*.txt" })).output.split("\n");
    expect(lines).toHaveLength(101);
    expect(lines.slice(0, 3)).toEqual(["f000.txt", "f001.txt", "f002.txt"]);
    expect(lines[99]).toBe("f099.txt");
    expect(lines[100]).toBe("(30 more not shown; with over 100 matches the list is in path order, not newest first; narrow the pattern)");
  });

  test("100 matches or fewer come newest first", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "";
    plant(files);
    for (let i = 0; i < 100; i++) utimesSync(join(dir.path, `f${String(i).padStart(3, "0")}.txt`), 1_000_000 + i, 1_000_000 + i);
    const lines = (await run({ pattern: "*.txt" })).output.split("\n");
    expect(lines).toHaveLength(100);
    expect(lines.slice(0, 2)).toEqual(["f099.txt", "f098.txt"]);
  });

  test("a missing path and a file path are errors the model can act on", async () => {
    plant({ "a.txt": "" });
    expect(await run({ pattern: "*", path: "nope" })).toEqual({
      output: 'The path "nope" does not exist. Check it, or call list on its parent folder to see what is there.',
      isError: true,
    });
    expect(await run({ pattern: "*", path: "a.txt" })).toEqual({
      output: 'The path "a.txt" is a file, not a folder. Pass the folder that holds it as path.',
      isError: true,
    });
  });

  test("asks to read the search folder, and an outside folder as external", () => {
    expect(glob.permissions?.({ pattern: "*", path: "src" }, { cwd: dir.path })).toEqual([
      { permission: "read", pattern: join(dir.path, "src"), always: [join(dir.path, "src")] },
    ]);
    const outside = glob.permissions?.({ pattern: "*", path: "/etc" }, { cwd: dir.path }) ?? [];
    expect(outside.map((r) => r.permission)).toEqual(["read", "external_directory"]);
    expect(glob.readOnly).toBe(true);
  });
});

describe("glob: what the walk skips", () => {
  test("root and nested .gitignore: negation, dir-only, anchoring, classes, escapes; .git and node_modules", async () => {
    plant({
      ".gitignore": "# build output\n*.log\n!keep.log\nout/\n/top.txt\ndocs/**/draft.md\n[z-a]\n\\#notes\nsrc/[ab]?.c\n",
      "#notes": "",
      "src/a1.c": "",
      "src/c1.c": "",
      "a.log": "",
      "keep.log": "",
      "top.txt": "",
      "sub/top.txt": "",
      "out/bundle.js": "",
      "sub/out": "a file named out is not a folder",
      "docs/x/y/draft.md": "",
      "docs/final.md": "",
      "pkg/.gitignore": "secret.txt\n!/a.log\n",
      "pkg/secret.txt": "",
      "pkg/a.log": "",
      "pkg/inner/a.log": "",
      "node_modules/dep/index.js": "",
      ".git/config": "",
      ".github/ci.yml": "",
    });
    const output = (await run({ pattern: "**/*" })).output.split("\n").sort();
    expect(output).toEqual([
      ".github/ci.yml",
      ".gitignore",
      "docs/final.md",
      "keep.log",
      "pkg/.gitignore",
      "pkg/a.log",
      "src/c1.c",
      "sub/out",
      "sub/top.txt",
    ]);
  });

  test("a subfolder search honours the .gitignore files above it, up to the repository root", async () => {
    plant({ ".gitignore": "*.gen.ts\n", "src/a.ts": "", "src/a.gen.ts": "" });
    expect((await run({ pattern: "*", path: "src" })).output).toBe("a.ts");
    // Above the repository root nothing is read.
    plant({ "inner/.git/HEAD": "", "inner/b.gen.ts": "" });
    expect((await run({ pattern: "*.ts", path: "inner" })).output).toBe("b.gen.ts");
  });

  test("a symlinked folder is listed but never followed, so a loop ends", async () => {
    plant({ "real/a.txt": "" });
    symlinkSync(dir.path, join(dir.path, "real/loop"));
    expect((await run({ pattern: "**/*" })).output.split("\n").sort()).toEqual(["real/a.txt", "real/loop"]);
  });
});

describe("glob: abort", () => {
  function bigTree(): void {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`d${i}/e/f.txt`] = "";
    plant(files);
  }

  test("an abort during the walk ends the call as interrupted", async () => {
    bigTree();
    const ctx = toolContext(dir.path);
    const pending = glob.run({ pattern: "**/*.txt" }, ctx);
    ctx.abort();
    expect(await pending).toEqual({ output: "Interrupted by the user; the search stopped.", isError: true });
  });

  test("the walk stops at the next folder once the signal aborts", async () => {
    bigTree();
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const entries of walk(dir.path, controller.signal)) {
      seen.push(...entries.map((entry) => entry.rel));
      controller.abort();
    }
    // The root's 200 folders are read before the abort is seen; none of their 600 entries below.
    expect(seen.length).toBe(200);
    expect(seen.every((rel) => !rel.includes("/"))).toBe(true);
  });

  test("a long walk gives the event loop turns, so an abort from a timer is seen before it ends", async () => {
    bigTree();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 0);
    let folders = 0;
    for await (const _ of walk(dir.path, controller.signal)) {
      folders++;
      // Slow work per folder, on the event loop's thread as a real consumer's would be.
      const until = performance.now() + 2;
      while (performance.now() < until);
    }
    // 401 folders hold entries (the root and 200 x d, e); the timer's abort ended the walk well before.
    expect(controller.signal.aborted).toBe(true);
    expect(folders).toBeLessThan(100);
  });
});
