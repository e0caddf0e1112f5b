// A tool folder's fingerprint changes with any file under it: an edit in place, a new file in a
// subfolder, a removal; a folder is listed again only when its own mtime moved (or is too recent).
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderFingerprints } from "../../../src/registry/fingerprint.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir | undefined;
afterEach(() => dir?.remove());

test("edits, additions and removals anywhere below show; an unchanged folder gives the same lines", () => {
  dir = tempDir("rein-fingerprint-");
  const lib = join(dir.path, "lib");
  mkdirSync(lib);
  writeFileSync(join(dir.path, "tool.ts"), "a");
  // Folders older than the racy window, so their listings are kept.
  const old = new Date(Date.now() - 60_000);
  for (const d of [dir.path, lib]) utimesSync(d, old, old);
  const prints = new FolderFingerprints();
  const first = prints.of(dir.path);
  expect(first).toHaveLength(1);
  expect(prints.of(dir.path)).toEqual(first);

  writeFileSync(join(dir.path, "tool.ts"), "ab"); // in place: the folder's mtime does not move
  const edited = prints.of(dir.path);
  expect(edited).not.toEqual(first);

  writeFileSync(join(lib, "helper.ts"), "x");
  expect(prints.of(dir.path)).toHaveLength(2);

  rmSync(join(lib, "helper.ts"));
  expect(prints.of(dir.path)).toEqual(edited);
  expect(prints.of(join(dir.path, "missing"))).toEqual([]);
});

test("a listing as recent as the clock's tick is made again; an older one is trusted until the folder's mtime moves", () => {
  dir = tempDir("rein-fingerprint-");
  writeFileSync(join(dir.path, "a.ts"), "a");
  const when = new Date(Date.now() - 10_000);
  utimesSync(dir.path, when, when);
  let now = when.getTime() + 500; // within the racy window of the folder's mtime
  const prints = new FolderFingerprints(() => now);
  expect(prints.of(dir.path)).toHaveLength(1);
  // an entry made in the same tick: the folder's mtime does not move
  writeFileSync(join(dir.path, "b.ts"), "b");
  utimesSync(dir.path, when, when);
  expect(prints.of(dir.path)).toHaveLength(2);
  now = when.getTime() + 60_000; // long after: the listing is trusted
  writeFileSync(join(dir.path, "c.ts"), "c");
  utimesSync(dir.path, when, when);
  expect(prints.of(dir.path)).toHaveLength(2);
  utimesSync(dir.path, new Date(), new Date()); // the mtime moved: listed again
  expect(prints.of(dir.path)).toHaveLength(3);
});
