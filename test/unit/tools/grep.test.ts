// The grep tool on real folders, through both engines: the built-in search always, ripgrep when it
// is installed (skipped otherwise), and the two compared on one fixture.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import grep from "../../../tools/grep.ts";
import { searchBuiltin, searchRipgrep } from "../../../tools/lib/grep-search.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { toolContext, type TestContext, toolOutcome as outcome } from "../../support/tool-context.ts";

type Engine = "builtin" | "rg";
const hasRg = Bun.which("rg") !== null;

let dir: TempDir;
beforeEach(() => {
  dir = tempDir("rein-grep-");
  // A repository root, so no .gitignore above the temp folder takes part.
  mkdirSync(join(dir.path, ".git"));
});
afterEach(() => dir.remove());

function plant(files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir.path, rel)), { recursive: true });
    writeFileSync(join(dir.path, rel), content);
  }
}


/** Runs grep with the engine chosen the way the tool chooses it: REIN_GREP=builtin, or rg on PATH. */
async function run(engine: Engine, input: unknown, ctx: TestContext = toolContext(dir.path)) {
  const saved = process.env.REIN_GREP;
  if (engine === "builtin") process.env.REIN_GREP = "builtin";
  else delete process.env.REIN_GREP;
  try {
    return outcome(await grep.run(v.parse(grep.input, input), ctx));
  } finally {
    if (saved === undefined) delete process.env.REIN_GREP;
    else process.env.REIN_GREP = saved;
  }
}

function numbered(count: number, text: (n: number) => string): string {
  return Array.from({ length: count }, (_, i) => `${text(i + 1)}\n`).join("");
}

const FIXTURE = {
  ".gitignore": "*.log\n!keep.log\nbuild/\n/root-only.txt\n",
  "src/app.ts": "import x from 'y';\nexport function Alpha() {}\n// alpha in a comment\n",
  "src/util.ts": "export const beta = 1;\r\nexport function gamma() {}\r\n",
  "src/nested/.gitignore": "secret.ts\n!/debug.log\n",
  "src/nested/secret.ts": "export function hidden() {}\n",
  "src/nested/deep.ts": "export function deep() {}\n",
  "src/nested/debug.log": "export function fromLog() {}\n",
  "notes.md": "Alpha and alpha\nnothing\n",
  "a.log": "export function ignored() {}\n",
  "keep.log": "export function kept() {}\n",
  "build/out.js": "export function built() {}\n",
  "docs/build": "export function notAFolder() {}\n",
  "root-only.txt": "export function anchored() {}\n",
  "docs/root-only.txt": "export function notAnchored() {}\n",
  "node_modules/dep/index.js": "export function dependency() {}\n",
  ".git/config": "export function gitInternals() {}\n",
  ".github/ci.ts": "export function hiddenFolder() {}\n",
  "image.bin": new Uint8Array([0x65, 0x78, 0x70, 0x6f, 0x72, 0x74, 0x00, 0x01, 0x0a]),
};

for (const engine of ["builtin", "rg"] as const) {
  describe.skipIf(engine === "rg" && !hasRg)(`grep (${engine})`, () => {
    test("a file name with a line break is printed as one escaped line, in both modes", async () => {
      // A name that reads as two lines, the second naming a real file that does not match.
      plant({ "evil\nname.txt": "needle here\n", "plain.txt": "needle too\n", "x\n./other.txt": "needle 3\n", "other.txt": "no\n" });
      expect((await run(engine, { pattern: "needle" })).output).toBe('"evil\\nname.txt"\nplain.txt\n"x\\n./other.txt"');
      expect((await run(engine, { pattern: "needle", output_mode: "content" })).output).toBe('"evil\\nname.txt":1:needle here\nplain.txt:1:needle too\n"x\\n./other.txt":1:needle 3');
    });

    test("files mode lists matching files in path order, skipping ignored, binary, .git and node_modules", async () => {
      plant(FIXTURE);
      expect(await run(engine, { pattern: "export (function|const)" })).toEqual({
        output: [".github/ci.ts", "docs/build", "docs/root-only.txt", "keep.log", "src/app.ts", "src/nested/debug.log", "src/nested/deep.ts", "src/util.ts"].join(
          "\n",
        ),
        isError: false,
      });
    });

    test("content mode gives path:line:text, CR stripped, ignore_case and glob filters", async () => {
      plant(FIXTURE);
      expect((await run(engine, { pattern: "alpha", output_mode: "content" })).output).toBe("notes.md:1:Alpha and alpha\nsrc/app.ts:3:// alpha in a comment");
      expect((await run(engine, { pattern: "alpha", ignore_case: true, output_mode: "content", glob: "*.ts" })).output).toBe(
        "src/app.ts:2:export function Alpha() {}\nsrc/app.ts:3:// alpha in a comment",
      );
      expect((await run(engine, { pattern: "export", output_mode: "content", glob: "src/*.ts" })).output).toBe(
        "src/app.ts:2:export function Alpha() {}\nsrc/util.ts:1:export const beta = 1;\nsrc/util.ts:2:export function gamma() {}",
      );
    });

    test("a file path searches that file; paths come relative to its folder", async () => {
      plant(FIXTURE);
      expect((await run(engine, { pattern: "gamma", path: "src/util.ts", output_mode: "content" })).output).toBe(
        "util.ts:2:export function gamma() {}",
      );
      expect((await run(engine, { pattern: "deep", path: "src" })).output).toBe("nested/deep.ts");
    });

    test("no match is a plain answer, not an error", async () => {
      plant(FIXTURE);
      expect(await run(engine, { pattern: "zzz", path: "src" })).toEqual({ output: "No matches for /zzz/ in src.", isError: false });
    });

    test("caps files at 100 and lines at 200 with a note, and cuts long lines", async () => {
      const files: Record<string, string> = { "long.txt": `needle ${"x".repeat(400)}\n` };
      for (let i = 0; i < 120; i++) files[`many/f${String(i).padStart(3, "0")}.txt`] = "needle\n";
      files["lines.txt"] = numbered(250, (n) => `needle ${n}`);
      plant(files);
      const listed = (await run(engine, { pattern: "needle" })).output.split("\n");
      expect(listed).toHaveLength(101);
      expect(listed[100]).toBe("(22 more files not shown; narrow the pattern, path or glob)");
      const lines = (await run(engine, { pattern: "needle", path: "lines.txt", output_mode: "content" })).output.split("\n");
      expect(lines).toHaveLength(201);
      expect(lines[199]).toBe("lines.txt:200:needle 200");
      expect(lines[200]).toBe("(50 more matching lines not shown; narrow the pattern, path or glob)");
      const long = (await run(engine, { pattern: "needle", glob: "long.txt", output_mode: "content" })).output;
      expect(long).toBe(`long.txt:1:needle ${"x".repeat(293)}… (line cut)`);
    });

    test("an invalid regex is an error that says why", async () => {
      plant(FIXTURE);
      const result = await run(engine, { pattern: "export (function" });
      expect(result.isError).toBe(true);
      expect(result.output).toStartWith("The regex is invalid: ");
      expect(result.output).toContain("missing )");
      expect(result.output).toContain("put a backslash before them");
    });

    test("an abort ends the call as interrupted", async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 200; i++) files[`d${i}/e/f.txt`] = "needle\n";
      plant(files);
      const ctx = toolContext(dir.path);
      const pending = run(engine, { pattern: "needle" }, ctx);
      ctx.abort();
      expect(await pending).toEqual({ output: "Interrupted by the user; the search stopped.", isError: true });
    });
  });
}

describe("grep: both engines", () => {
  test.skipIf(!hasRg)("give identical output on the same tree", async () => {
    const files: Record<string, string | Uint8Array> = { ...FIXTURE };
    for (let i = 0; i < 150; i++) files[`gen/m${i % 7}/file${i}.ts`] = numbered(3, (n) => `const v${n} = ${i * n}; // export ${i % 3 === 0 ? "Alpha" : "beta"}`);
    plant(files);
    const inputs = [
      { pattern: "export" },
      { pattern: "export", output_mode: "content" },
      { pattern: "alpha", ignore_case: true, output_mode: "content" },
      { pattern: "^const v[12] = \\d+;", output_mode: "content", path: "gen" },
      { pattern: "beta|gamma", glob: "*.ts" },
      { pattern: "v3", glob: "gen/m3/**", output_mode: "content" },
      { pattern: "nothing-here" },
    ];
    for (const input of inputs) {
      const builtin = await run("builtin", input);
      expect({ input, ...(await run("rg", input)) }).toEqual({ input, ...builtin });
    }
  });

  test.skipIf(!hasRg)("rg itself answers (no silent fallback) with the built-in search's hits", async () => {
    plant(FIXTURE);
    for (const content of [false, true]) {
      const query = { root: dir.path, pattern: "export", ignoreCase: false, content, limit: 100, signal: new AbortController().signal };
      const viaRg = await searchRipgrep(Bun.which("rg")!, query);
      expect(viaRg).toBeDefined();
      expect(viaRg?.hits.length).toBeGreaterThan(5);
      expect(viaRg).toEqual(await searchBuiltin(query));
    }
  });

  test.skipIf(!hasRg)("a regex rg rejects but JavaScript accepts falls back to the built-in search", async () => {
    plant({ "a.txt": "foobar\nfoobaz\n" });
    expect((await run("rg", { pattern: "foo(?=bar)", output_mode: "content" })).output).toBe("a.txt:1:foobar");
  });
});

describe("grep: environment files", () => {
  for (const engine of ["builtin", "rg"] as const) {
    test.skipIf(engine === "rg" && !hasRg)(`${engine}: a folder search leaves .env-family files out; a template and a .env named as the path are searched`, async () => {
      plant({ ".env": "API_KEY=sk-1\n", "app/.env.local": "API_KEY=sk-2\n", "app/.envrc": "export API_KEY=sk-3\n", "app/.env.example": "API_KEY=\n", "app/main.ts": "const API_KEY = process.env.API_KEY;\n" });
      const all = (await run(engine, { pattern: "API_KEY", output_mode: "content" })).output;
      expect(all).not.toContain("sk-");
      expect(all).toContain("app/.env.example:1:API_KEY=");
      expect(all).toContain("app/main.ts:1:");
      expect((await run(engine, { pattern: "API_KEY", path: ".env", output_mode: "content" })).output).toContain("sk-1");
    });
  }
});

describe("grep: the environment rg runs with", () => {
  test("rg runs with the environment it is given (the grep tool gives its context's), so a credential in rein's never reaches it", async () => {
    // A stand-in rg that writes the environment it got and fails, so the search falls back.
    const seen = join(dir.path, "seen-env");
    const fakeRg = join(dir.path, "fake-rg");
    writeFileSync(fakeRg, `#!/bin/sh\nenv > '${seen}'\nexit 2\n`, { mode: 0o755 });
    process.env.REIN_TEST_DEPLOY_TOKEN = "tok-123";
    try {
      const ctx = toolContext(dir.path);
      expect(ctx.env.REIN_TEST_DEPLOY_TOKEN).toBeUndefined();
      await searchRipgrep(fakeRg, { root: dir.path, pattern: "x", ignoreCase: false, content: false, limit: 10, signal: ctx.signal, env: ctx.env });
      const env = await Bun.file(seen).text();
      expect(env).toContain("PATH=");
      expect(env).not.toContain("tok-123");
    } finally {
      delete process.env.REIN_TEST_DEPLOY_TOKEN;
    }
  });
});

describe("grep: abort mid-search", () => {
  const LINES = 300_000;

  /** A query that aborts at its first hit and counts the hits it was offered. */
  function abortingQuery(content: boolean) {
    const controller = new AbortController();
    let offered = 0;
    const query = {
      root: dir.path,
      pattern: "needle",
      ignoreCase: false,
      content,
      filter: () => (offered++, controller.abort(), true),
      limit: 200,
      signal: controller.signal,
    };
    return { query, offered: () => offered };
  }

  test.skipIf(!hasRg)("rg is killed: far fewer lines arrive than it would print", async () => {
    plant({ "big.txt": numbered(LINES, (n) => `needle ${n} ${"x".repeat(40)}`) });
    const { query, offered } = abortingQuery(true);
    await searchRipgrep(Bun.which("rg")!, query);
    // rg blocks on the full pipe, so only what was already in it arrives after the kill.
    expect(offered()).toBeLessThan(LINES / 3);
  });

  test("the built-in search stops reading files", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i}/f.txt`] = "needle\n";
    plant(files);
    const { query, offered } = abortingQuery(false);
    const found = await searchBuiltin(query);
    expect(offered()).toBeLessThan(50);
    expect(found.hits.length).toBeLessThan(50);
  });
});

describe("the built-in search streams each file within its limits", () => {
  const query = (content: boolean, limits: Record<string, number>, pattern = "needle") => ({
    root: dir.path,
    pattern,
    ignoreCase: false,
    content,
    limit: 200,
    signal: new AbortController().signal,
    limits,
  });

  test("lines across many small chunks keep their numbers; a NUL past the first chunk still marks a binary file", async () => {
    plant({
      "a.txt": numbered(500, (n) => (n % 100 === 0 ? `needle ${n}` : `hay ${n}`)),
      "bin.dat": `${"text ".repeat(20)}\u0000needle\n`,
    });
    const found = await searchBuiltin(query(true, { chunkBytes: 7 }));
    expect(found.hits).toEqual([100, 200, 300, 400, 500].map((n) => ({ path: "a.txt", line: n, text: `needle ${n}` })));
    expect(found.skipped).toBeUndefined();
  });

  test("a line longer than the line limit is searched in windows: a match at its end or across a window edge is found", async () => {
    plant({
      "end.txt": `${"x".repeat(50_000)}needle\nsecond\n`,
      "edge.txt": `${"y".repeat(1020)}needle${"y".repeat(5000)}\n`,
      "none.txt": `${"z".repeat(50_000)}\n`,
    });
    const found = await searchBuiltin(query(true, { chunkBytes: 256, maxLineBytes: 1024 }));
    expect(found.hits.map((h) => [h.path, h.line])).toEqual([["edge.txt", 1], ["end.txt", 1]]);
    expect(found.hits.every((h) => h.text.length <= 320)).toBe(true);
  });

  test("files over the size limit are skipped and reported by the tool, biggest first; smaller ones are still searched", async () => {
    plant({ "big.log": `needle\n${"x".repeat(3000)}\n`, "bigger.log": `${"x".repeat(5000)}\n`, "small.txt": "needle\n" });
    const files = await searchBuiltin(query(false, { maxFileBytes: 2048 }));
    expect(files.hits.map((h) => h.path)).toEqual(["small.txt"]);
    expect(files.skipped).toEqual([{ path: "bigger.log", bytes: 5001 }, { path: "big.log", bytes: 3008 }]);
    process.env.REIN_GREP_MAX_FILE_BYTES = "2048";
    try {
      const shown = (await run("builtin", { pattern: "needle" })).output;
      expect(shown).toBe(
        "small.txt\n(2 files were not searched, too big for the built-in search: bigger.log (4.9 KB), big.log (2.9 KB); search it with bash (grep -n PATTERN FILE) or install ripgrep)",
      );
      const none = (await run("builtin", { pattern: "absent" })).output;
      expect(none.split("\n")[0]).toBe("No matches for /absent/ in the files searched.");
    } finally {
      delete process.env.REIN_GREP_MAX_FILE_BYTES;
    }
  });
});
