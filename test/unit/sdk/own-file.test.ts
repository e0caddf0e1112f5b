// The reader of files rein opens on its own: regular files only, never blocking on a named pipe.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { missingFile, NotRegularFileError, readOwnBytes, readOwnText, readProblem } from "../../../src/sdk/own-file.ts";

const dir = mkdtempSync(join(tmpdir(), "rein-own-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fifo(name: string): string {
  const path = join(dir, name);
  expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
  return path;
}

test("a regular file is read whole, and through a symlink", () => {
  writeFileSync(join(dir, "a.md"), "hello\n");
  symlinkSync(join(dir, "a.md"), join(dir, "link.md"));
  expect(readOwnText(join(dir, "a.md"))).toBe("hello\n");
  expect(readOwnText(join(dir, "link.md"))).toBe("hello\n");
});

test("a cap reads no more than it and says the file is longer", () => {
  writeFileSync(join(dir, "long.md"), "x".repeat(100_000));
  expect(readOwnBytes(join(dir, "long.md"), 10)).toMatchObject({ size: 100_000, cut: true });
  expect(readOwnBytes(join(dir, "long.md"), 10).bytes.length).toBe(10);
  expect(readOwnBytes(join(dir, "long.md"), 100_000)).toMatchObject({ size: 100_000, cut: false });
  expect(readOwnBytes(join(dir, "long.md")).bytes.length).toBe(100_000);
});

test("a named pipe nobody writes is refused at once, directly or through a symlink", () => {
  const pipe = fifo("pipe.md");
  symlinkSync(pipe, join(dir, "pipe-link.md"));
  for (const path of [pipe, join(dir, "pipe-link.md")]) {
    let error: unknown;
    try {
      readOwnText(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NotRegularFileError);
    expect(readProblem(error)).toBe("it is a named pipe (FIFO), not a regular file");
    expect(missingFile(error)).toBe(false);
  }
});

test("a folder and a device are refused; a missing file is missing", () => {
  mkdirSync(join(dir, "folder.md"));
  expect(() => readOwnText(join(dir, "folder.md"))).toThrow("is a folder, not a regular file");
  expect(() => readOwnText("/dev/zero")).toThrow("is a device, not a regular file");
  let error: unknown;
  try {
    readOwnText(join(dir, "none.md"));
  } catch (e) {
    error = e;
  }
  expect(missingFile(error)).toBe(true);
});
