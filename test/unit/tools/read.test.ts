// The read tool on real files in a temp folder: windows, refusals, images and a 1 GB file.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import read from "../../../tools/read.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { toolContext, toolOutcome as outcome } from "../../support/tool-context.ts";

let dir: TempDir;
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.remove());


async function run(input: unknown, ctx = toolContext(dir.path)) {
  return outcome(await read.run(v.parse(read.input, input), ctx));
}

function lines(count: number, text = (n: number) => `line ${n}`): string {
  return Array.from({ length: count }, (_, i) => `${text(i + 1)}\n`).join("");
}

describe("read: text", () => {
  test("numbers lines like cat -n and records the read stamp", async () => {
    writeFileSync(join(dir.path, "a.txt"), "alpha\n\tbeta\ngamma");
    const ctx = toolContext(dir.path);
    const result = await run({ path: "a.txt" }, ctx);
    expect(result.isError).toBe(false);
    expect(result.output).toBe("     1\talpha\n     2\t\tbeta\n     3\tgamma");
    const path = join(dir.path, "a.txt");
    const stat = statSync(path);
    expect(ctx.files.lastRead(path)).toEqual({ mtimeMs: stat.mtimeMs, size: stat.size, hash: createHash("sha256").update(readFileSync(path)).digest("hex") });
  });

  test("an absolute path works the same as a relative one", async () => {
    const path = join(dir.path, "abs.txt");
    writeFileSync(path, "one\n");
    expect((await run({ path })).output).toBe("     1\tone");
  });

  test("reads 2000 lines by default and says which offset continues", async () => {
    writeFileSync(join(dir.path, "long.txt"), lines(2500));
    const first = await run({ path: "long.txt" });
    expect(first.output).toContain("     1\tline 1\n");
    expect(first.output).toContain("  2000\tline 2000\n");
    expect(first.output).not.toContain("line 2001");
    expect(first.output).toContain("Showing lines 1-2000. More lines follow: read with offset=2001 to continue.");

    const rest = await run({ path: "long.txt", offset: 2001 });
    expect(rest.output.startsWith("  2001\tline 2001\n")).toBe(true);
    expect(rest.output.endsWith("  2500\tline 2500")).toBe(true);
    expect(rest.output).not.toContain("More lines");
  });

  test("offset and limit choose the window", async () => {
    writeFileSync(join(dir.path, "w.txt"), lines(10));
    const result = await run({ path: "w.txt", offset: 4, limit: 3 });
    expect(result.output).toBe("     4\tline 4\n     5\tline 5\n     6\tline 6\n\n(Showing lines 4-6. More lines follow: read with offset=7 to continue.)");
  });

  test("a window that ends at the last line says nothing follows", async () => {
    writeFileSync(join(dir.path, "w.txt"), lines(6));
    expect((await run({ path: "w.txt", offset: 4, limit: 3 })).output).toBe("     4\tline 4\n     5\tline 5\n     6\tline 6");
  });

  test("an offset past the end is an error that gives the line count", async () => {
    writeFileSync(join(dir.path, "w.txt"), lines(5));
    const result = await run({ path: "w.txt", offset: 9 });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("offset 9 is past the end");
    expect(result.output).toContain("has 5 lines");
  });

  test("lines over 2000 characters are cut with a marker", async () => {
    writeFileSync(join(dir.path, "wide.txt"), `${"x".repeat(5000)}\nshort\n`);
    const result = await run({ path: "wide.txt" });
    const [first, second] = result.output.split("\n");
    expect(first).toBe(`     1\t${"x".repeat(2000)} [… line cut at 2000 characters]`);
    expect(second).toBe("     2\tshort");
    expect(result.output).toContain("cut -c2001-");
  });

  test("a window of long lines stops at 50,000 characters and says where to go on", async () => {
    writeFileSync(join(dir.path, "wide.txt"), lines(100, () => "y".repeat(1500)));
    const result = await run({ path: "wide.txt" });
    expect(result.output).toContain("    33\t");
    expect(result.output).not.toContain("    34\t");
    expect(result.output).toContain("Showing lines 1-33. More lines follow: read with offset=34 to continue.");
  });

  test("a line of exactly 2000 characters before a CRLF is not cut", async () => {
    writeFileSync(join(dir.path, "edge.txt"), `${"x".repeat(2000)}\r\n${"y".repeat(2001)}\r\n`);
    const [first, second] = (await run({ path: "edge.txt" })).output.split("\n");
    expect(first).toBe(`     1\t${"x".repeat(2000)}`);
    expect(second).toBe(`     2\t${"y".repeat(2000)} [… line cut at 2000 characters]`);
  });

  test("CRLF line ends are not shown", async () => {
    writeFileSync(join(dir.path, "dos.txt"), "one\r\ntwo\r\n");
    expect((await run({ path: "dos.txt" })).output).toBe("     1\tone\n     2\ttwo");
  });

  test("an empty file says so and counts as read", async () => {
    const path = join(dir.path, "empty.txt");
    writeFileSync(path, "");
    const ctx = toolContext(dir.path);
    const result = await run({ path: "empty.txt" }, ctx);
    expect(result).toMatchObject({ isError: false, output: `${path} is empty.` });
    expect(ctx.files.lastRead(path)).toEqual({ mtimeMs: statSync(path).mtimeMs, size: 0, hash: createHash("sha256").update("").digest("hex") });
  });
});

describe("read: refusals", () => {
  test("a directory is refused with a pointer to list or glob", async () => {
    mkdirSync(join(dir.path, "src"));
    const result = await run({ path: "src" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("is a directory: use list or glob");
  });

  test("a missing file is an error that suggests glob and similar names", async () => {
    writeFileSync(join(dir.path, "config.json"), "{}");
    const result = await run({ path: "confg.json" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain(`${join(dir.path, "confg.json")} does not exist.`);
    expect(result.output).toContain("Similar names in");
    expect(result.output).toContain("config.json");
    expect(result.output).toContain("glob");
  });

  test("a similar name holding a line break is suggested escaped, on the same line", async () => {
    writeFileSync(join(dir.path, "notes\n.md"), "x");
    const result = await run({ path: "notes.md" });
    expect(result.output).toContain('Similar names in');
    expect(result.output).toContain('"notes\\n.md"');
    expect(result.output.split("\n")).toHaveLength(1);
  });

  test("a missing folder is an error too", async () => {
    const result = await run({ path: "nowhere/file.ts" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("does not exist. Find files by name with glob.");
  });

  test("a file with NUL bytes is refused as binary and not recorded", async () => {
    const path = join(dir.path, "data.bin2");
    writeFileSync(path, Buffer.from([0x41, 0x42, 0x00, 0x43, 0x0a]));
    const ctx = toolContext(dir.path);
    const result = await run({ path: "data.bin2" }, ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain("is a binary file");
    expect(result.output).toContain("xxd");
    expect(ctx.files.lastRead(path)).toBeUndefined();
  });

  test("a known binary extension is refused even when its first bytes look like text", async () => {
    writeFileSync(join(dir.path, "bundle.zip"), "PK looks like text");
    const result = await run({ path: "bundle.zip" });
    expect(result.isError).toBe(true);
    expect(result.output).toContain("binary file");
    expect(result.output).toContain("unzip -l");
  });
});

describe("read: images", () => {
  const fixture = (name: string) => readFileSync(join(import.meta.dir, "../../fixtures/images", name));
  const PNG = fixture("red.png");

  test("a small image is described, with its data attached for the model", async () => {
    writeFileSync(join(dir.path, "logo.png"), PNG);
    const result = await run({ path: "logo.png" });
    expect(result.isError).toBe(false);
    expect(result.output).toBe(`${join(dir.path, "logo.png")} is an image (image/png, ${PNG.length} bytes).`);
    expect(result.images).toEqual([{ mediaType: "image/png", base64: PNG.toString("base64") }]);
    expect(result.metadata).toEqual({ image: { mediaType: "image/png", bytes: PNG.length } });
  });

  test("JPEG, GIF and WebP images (as a browser writes them) are attached too", async () => {
    for (const [name, mediaType] of [["red.jpg", "image/jpeg"], ["dot.gif", "image/gif"], ["red.webp", "image/webp"]] as const) {
      writeFileSync(join(dir.path, name), fixture(name));
      expect(await run({ path: name })).toMatchObject({ isError: false, images: [{ mediaType }] });
    }
  });

  test("the content decides the type: a PNG named .jpg is image/png", async () => {
    writeFileSync(join(dir.path, "photo.jpg"), PNG);
    expect((await run({ path: "photo.jpg" })).metadata).toMatchObject({ image: { mediaType: "image/png" } });
  });

  test("a corrupt image is an error saying what is wrong, never attached", async () => {
    const cases: [string, Buffer, string][] = [
      ["garbage.png", Buffer.from("this is not a picture at all, only text that claims to be one"), "it does not start with the PNG signature"],
      ["cut.png", PNG.subarray(0, PNG.length - 20), "the file is cut short"],
      ["damaged.png", Buffer.from(PNG.map((byte, i) => (i === 40 ? byte ^ 0x55 : byte))), "damaged (checksum mismatch)"],
      ["cut.jpg", fixture("red.jpg").subarray(0, 300), "cut short"],
      ["cut.gif", fixture("dot.gif").subarray(0, 30), "runs past the end of the file"],
      ["cut.webp", fixture("red.webp").subarray(0, 200), "cut short"],
      ["empty.png", Buffer.alloc(0), "the file is empty"],
    ];
    for (const [name, bytes, why] of cases) {
      writeFileSync(join(dir.path, name), bytes);
      const result = await run({ path: name });
      expect(result.isError).toBe(true);
      expect(result.output).toContain(`${join(dir.path, name)} is not a usable image/`);
      expect(result.output).toContain(why);
      expect(result.images).toBeUndefined();
    }
  });

  test("an image over 5 MB is described without its data", async () => {
    const path = join(dir.path, "huge.png");
    writeFileSync(path, PNG);
    truncateSync(path, 6 * 1024 * 1024);
    const result = await run({ path: "huge.png" });
    expect(result.isError).toBe(false);
    expect(result.output).toContain("(image/png, 6.0 MB)");
    expect(result.output).toContain("not attached");
    expect(result.metadata).toBeUndefined();
  });
});

describe("read: large files", () => {
  test("a 1 GB file returns its first lines quickly without being loaded", async () => {
    const path = join(dir.path, "big.log");
    writeFileSync(path, lines(5000)); // text well past the 8 KB sniffed for NUL bytes
    truncateSync(path, 1024 ** 3); // sparse: the rest reads as NUL bytes, costing no disk
    Bun.gc(true);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const result = await run({ path: "big.log" });
    const elapsed = performance.now() - started;
    const growth = process.memoryUsage().rss - rssBefore;

    expect(result.isError).toBe(false);
    expect(result.output.startsWith("     1\tline 1\n     2\tline 2\n")).toBe(true);
    expect(result.output).toContain("  2000\tline 2000\n");
    expect(result.output).toContain("read with offset=2001 to continue");
    expect(elapsed).toBeLessThan(5000);
    expect(growth).toBeLessThan(200 * 1024 * 1024);
  });

  test("a window just before a 1 GB line stops as soon as that line starts", async () => {
    const path = join(dir.path, "big.log");
    writeFileSync(path, lines(5000));
    truncateSync(path, 1024 ** 3); // line 5001 is a billion NUL bytes with no newline
    const result = await run({ path: "big.log", offset: 4999, limit: 2 });
    expect(result.output).toBe("  4999\tline 4999\n  5000\tline 5000\n\n(Showing lines 4999-5000. More lines follow: read with offset=5001 to continue.)");
  });

  test("a cut last line longer than the look-ahead says more lines may follow", async () => {
    writeFileSync(join(dir.path, "minified.js"), `${"z".repeat(3 * 1024 * 1024)}\nsecond\n`);
    const result = await run({ path: "minified.js", limit: 1 });
    expect(result.output).toContain("[… line cut at 2000 characters]");
    expect(result.output).toContain("More lines may follow: read with offset=2 to continue.");
  });

  test("an aborted read stops with the abort", async () => {
    writeFileSync(join(dir.path, "a.txt"), "text\n");
    const ctx = toolContext(dir.path);
    ctx.abort();
    await expect(read.run({ path: "a.txt" }, ctx)).rejects.toThrow();
  });
});

describe("read: input and permissions", () => {
  test("the schema rejects a missing path, offset 0 and a fractional limit", () => {
    expect(v.safeParse(read.input, {}).success).toBe(false);
    expect(v.safeParse(read.input, { path: "a", offset: 0 }).success).toBe(false);
    expect(v.safeParse(read.input, { path: "a", limit: 1.5 }).success).toBe(false);
    expect(v.safeParse(read.input, { path: "a", offset: 3, limit: 10 }).success).toBe(true);
  });

  test("is read-only and asks to read the resolved path, and for outside directories", () => {
    expect(read.readOnly).toBe(true);
    expect(read.permissions!({ path: "src/a.ts" }, { cwd: "/w" })).toEqual([{ permission: "read", pattern: "/w/src/a.ts", always: ["/w/src/a.ts"] }]);
    expect(read.permissions!({ path: "/etc/hosts" }, { cwd: "/w" }).map((r) => r.permission)).toEqual(["read", "external_directory"]);
  });
});
