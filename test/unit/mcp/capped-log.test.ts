// A stdio server's stderr in its log: the header, then what it wrote up to the cap, then one line
// saying the rest was dropped; the stream is read to its end either way (a server never blocks on a
// full pipe), and each start appends to the same file.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { logStderr } from "../../../src/mcp/capped-log.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
beforeEach(() => {
  dir = tempDir("rein-capped-log-");
});
afterEach(() => dir.remove());

/** The file once its writes have landed: its size the same on two looks after the stream ended. */
async function settled(file: string): Promise<string> {
  let last = -1;
  for (let i = 0; i < 400; i++) {
    await Bun.sleep(5);
    const size = Bun.file(file).size;
    if (size > 0 && size === last) break;
    last = size;
  }
  return readFileSync(file, "utf8");
}

/** Writes the chunks to a stderr stream logged with `cap`, and reads the log once written. */
async function logged(file: string, chunks: string[], cap?: number): Promise<string> {
  const stderr = new PassThrough();
  logStderr(stderr, file, "--- start 1\n", cap);
  for (const chunk of chunks) stderr.write(chunk);
  stderr.end();
  await new Promise((resolve) => stderr.on("end", resolve));
  return settled(file);
}

test("under the cap everything is kept after the header, mode 0600", async () => {
  const file = join(dir.path, "docs.log");
  expect(await logged(file, ["one\n", "two\n"])).toBe("--- start 1\none\ntwo\n");
  expect(statSync(file).mode & 0o777).toBe(0o600);
});

test("past the cap the log keeps exactly the cap's worth and says the rest is not logged", async () => {
  const file = join(dir.path, "chatty.log");
  const text = await logged(file, ["a".repeat(60), "b".repeat(60), "c".repeat(60)], 100);
  expect(text).toBe(`--- start 1\n${"a".repeat(60)}${"b".repeat(40)}\n--- rein: the rest of this start's stderr is not logged (${100 / 1024 / 1024} MiB per start at most)\n`);
  expect(text).not.toContain("c");
});

test("a chunk that fits exactly is kept whole, and the next one is cut off", async () => {
  const file = join(dir.path, "exact.log");
  const text = await logged(file, ["x".repeat(50), "y"], 50);
  expect(text.startsWith(`--- start 1\n${"x".repeat(50)}\n--- rein:`)).toBe(true);
});

test("each start appends to the same log, with its own header and cap", async () => {
  const file = join(dir.path, "restarts.log");
  await logged(file, ["first run\n"]);
  const second = new PassThrough();
  logStderr(second, file, "--- start 2\n");
  second.end("second run\n");
  await new Promise((resolve) => second.on("end", resolve));
  expect(await settled(file)).toBe("--- start 1\nfirst run\n--- start 2\nsecond run\n");
});

test("no stderr stream: only the header; a log that cannot be written costs the log, not the server", async () => {
  const file = join(dir.path, "none.log");
  logStderr(undefined, file, "--- start\n");
  expect(await settled(file)).toBe("--- start\n");
  const stderr = new PassThrough();
  expect(() => logStderr(stderr, join(dir.path, "missing-folder", "x.log"), "h\n")).not.toThrow();
  stderr.end("lost\n");
  await new Promise((resolve) => stderr.on("end", resolve));
  stderr.resume();
});
