// The watcher that spares the checkpoint before a shell command from reading every file's stat:
// real folders, real inotify events (awaited, never slept on).
import { afterAll, afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChangeWatch } from "../../../src/checkpoint/watch.ts";

const root = mkdtempSync(join(tmpdir(), "rein-watch-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const open: ChangeWatch[] = [];
afterEach(() => open.splice(0).forEach((w) => w.close()));

/** A workspace with src/ and src/lib/, watched, armed; `next(path)` resolves when that path's event came. */
async function watched(name: string) {
  const ws = join(root, name);
  mkdirSync(join(ws, "src/lib"), { recursive: true });
  writeFileSync(join(ws, "src/a.ts"), "a\n");
  writeFileSync(join(ws, "src/lib/b.ts"), "b\n");
  const waiting = new Map<string, () => void>();
  const watch = new ChangeWatch(ws, (path) => {
    if (path) waiting.get(path)?.();
  });
  open.push(watch);
  await watch.sync(["src", "src/lib"]);
  watch.reset();
  const next = (path: string) => new Promise<void>((resolve) => waiting.set(path, resolve));
  return { ws, watch, next };
}

test("before it is armed by a full look, it cannot vouch for anything", async () => {
  const ws = join(root, "unarmed");
  mkdirSync(ws, { recursive: true });
  const watch = new ChangeWatch(ws);
  open.push(watch);
  expect(watch.take()).toBeUndefined();
  await watch.sync([]);
  expect(watch.take()).toBeUndefined();
  watch.reset();
  expect(watch.take()).toEqual([]);
});

test("names the files changed, created and deleted since the last look, and then forgets them", async () => {
  const { ws, watch, next } = await watched("files");
  const heard = Promise.all([next("src/a.ts"), next("src/lib/new.ts"), next("src/lib/b.ts")]);
  writeFileSync(join(ws, "src/a.ts"), "changed\n");
  writeFileSync(join(ws, "src/lib/new.ts"), "new\n");
  rmSync(join(ws, "src/lib/b.ts"));
  await heard;

  expect(watch.take()?.sort()).toEqual(["src/a.ts", "src/lib/b.ts", "src/lib/new.ts"]);
  expect(watch.take()).toEqual([]);
});

test("a folder created, removed or renamed, or a .gitignore changed, makes it answer unknown", async () => {
  for (const [name, change, path] of [
    ["mkdir", (ws: string) => mkdirSync(join(ws, "src/made")), "src/made"],
    ["rmdir", (ws: string) => rmSync(join(ws, "src/lib"), { recursive: true }), "src/lib"],
    ["rename", (ws: string) => renameSync(join(ws, "src/lib"), join(ws, "src/lib2")), "src/lib2"],
    ["ignore", (ws: string) => writeFileSync(join(ws, "src/.gitignore"), "*.ts\n"), "src/.gitignore"],
  ] as const) {
    const { ws, watch, next } = await watched(name);
    const heard = next(path);
    change(ws);
    await heard;
    expect(watch.take()).toBeUndefined();
    // A full look arms it again.
    watch.reset();
    expect(watch.take()).toEqual([]);
  }
});

test("a file created in a folder it does not watch disarms it until the next full look", async () => {
  const { watch } = await watched("notice");
  watch.notice(["src/a.ts"]);
  expect(watch.take()).toEqual([]);
  watch.notice(["fresh/dir/file.ts"]);
  expect(watch.take()).toBeUndefined();
});
