// The journal file (rewritten whole, a damaged one kept aside and read as none) and the snapshot's
// sorting of changed paths (too big, nested repositories, new folders, empty folders, git's
// leftover temporary objects), on real files.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { journalPath, readJournal, writeJournal, type Checkpoint } from "../../../src/checkpoint/journal.ts";
import { dropTemporaryObjects, emptyDirsUnder, isEmptyDir, nulInput, sortChanged } from "../../../src/checkpoint/scan.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
beforeEach(() => {
  dir = tempDir("rein-journal-");
});
afterEach(() => dir.remove());

const write = (path: string, text = "") => {
  const file = join(dir.path, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

const checkpoint = (n: number, over: Partial<Checkpoint> = {}): Checkpoint => ({
  n,
  session_id: "s_1",
  seq: n * 10,
  messages_before: n * 2,
  at: 1_700_000_000_000 + n,
  before: "a".repeat(40),
  before_dirs: [],
  uncovered: [],
  side_effects: [],
  ...over,
});

describe("the journal", () => {
  test("it lives in journal/ under the workspace's store, one file per session", () => {
    expect(journalPath("/data/ws", "s_abc")).toBe("/data/ws/journal/s_abc.json");
  });

  test("no file is no checkpoints; what is written is read back as it was, oldest first", () => {
    const path = journalPath(dir.path, "s_1");
    expect(readJournal(path)).toEqual([]);
    const written = [
      checkpoint(1, { after: "b".repeat(40), after_dirs: ["empty"], changed: [{ status: "renamed", path: "new.ts", from: "old.ts" }], grown: ["big.bin"] }),
      checkpoint(2, { incomplete: "the disk was full", outside: [{ path: "/etc/x", before: null, after: { file: "f1", sha256: "00", mode: 0o644 } }] }),
      checkpoint(3, { undone: { at: 5, code: "c".repeat(40) } }),
    ];
    writeJournal(path, written);
    expect(readJournal(path)).toEqual(written);
    expect(JSON.parse(readFileSync(path, "utf8")).version).toBe(1);
    // the write leaves no temporary file behind
    expect(readdirSync(dirname(path))).toEqual(["s_1.json"]);
  });

  test("a rewrite replaces the whole list", () => {
    const path = journalPath(dir.path, "s_1");
    writeJournal(path, [checkpoint(1), checkpoint(2)]);
    writeJournal(path, [checkpoint(2)]);
    expect(readJournal(path).map((c) => c.n)).toEqual([2]);
  });

  test("a damaged file (not JSON, another version, a bad field) reads as none and is kept aside as .damaged", () => {
    const damaged = ["{ half", JSON.stringify({ version: 2, checkpoints: [] }), JSON.stringify({ version: 1, checkpoints: [{ ...checkpoint(1), changed: [{ status: "exploded", path: "x" }] }] })];
    for (const [i, text] of damaged.entries()) {
      const path = journalPath(dir.path, `s_bad${i}`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      expect(readJournal(path)).toEqual([]);
      expect(existsSync(path)).toBe(false);
      expect(readFileSync(`${path}.damaged`, "utf8")).toBe(text);
      // a new journal can be written beside the damaged one
      writeJournal(path, [checkpoint(1)]);
      expect(readJournal(path)).toHaveLength(1);
    }
  });

  test("a write that cannot be made throws and leaves no temporary file", () => {
    const path = journalPath(dir.path, "s_1");
    mkdirSync(path, { recursive: true }); // a folder where the file should be: the rename fails
    expect(() => writeJournal(path, [checkpoint(1)])).toThrow();
    expect(readdirSync(dirname(path))).toEqual(["s_1.json"]);
  });
});

describe("sortChanged", () => {
  test("small files and gone files are updated; files over the limit are dropped and listed uncovered", () => {
    write("small.txt", "x".repeat(10));
    write("big.bin", "x".repeat(2000));
    const sorted = sortChanged(dir.path, ["small.txt", "big.bin", "gone.txt", "small.txt"], 1000);
    expect(sorted).toEqual({ update: ["small.txt", "gone.txt"], drop: ["big.bin"], uncovered: ["big.bin"], folders: [] });
  });

  test("a file exactly at the limit is kept; a symlink is recorded as a link whatever its target's size", () => {
    write("edge.txt", "x".repeat(1000));
    write("target.bin", "x".repeat(5000));
    symlinkSync(join(dir.path, "target.bin"), join(dir.path, "link"));
    expect(sortChanged(dir.path, ["edge.txt", "link"], 1000).update).toEqual(["edge.txt", "link"]);
  });

  test("a new folder git listed whole is a folder to list again; a nested repository is its own git's, uncovered", () => {
    write("newdir/a.ts", "a");
    write("vendor/lib/.git/HEAD", "ref: refs/heads/main");
    const sorted = sortChanged(dir.path, ["newdir/", "vendor/lib/"], 1000);
    expect(sorted).toEqual({ update: [], drop: [], uncovered: ["vendor/lib/"], folders: ["newdir"] });
  });

  test("paths in `except` are passed over", () => {
    write("a.txt", "a");
    write("b.txt", "b");
    expect(sortChanged(dir.path, ["a.txt", "b.txt"], 1000, new Set(["a.txt"])).update).toEqual(["b.txt"]);
  });
});

describe("empty folders", () => {
  test("found in and under the given folders, not files, not a missing folder", () => {
    mkdirSync(join(dir.path, "a", "empty1"), { recursive: true });
    mkdirSync(join(dir.path, "a", "full", "empty2"), { recursive: true });
    write("a/full/file.txt", "x");
    mkdirSync(join(dir.path, "alone"), { recursive: true });
    write("plain.txt", "x");
    expect(emptyDirsUnder(dir.path, ["a", "alone", "plain.txt", "missing"]).sort()).toEqual(["a/empty1", "a/full/empty2", "alone"]);
    expect(isEmptyDir(join(dir.path, "alone"))).toBe(true);
    expect(isEmptyDir(join(dir.path, "a"))).toBe(false);
    expect(isEmptyDir(join(dir.path, "plain.txt"))).toBe(false);
    expect(isEmptyDir(join(dir.path, "missing"))).toBe(false);
  });

  test("the search stops 8 folders down", () => {
    const deep = Array.from({ length: 10 }, (_, i) => `d${i}`).join("/");
    mkdirSync(join(dir.path, deep), { recursive: true });
    expect(emptyDirsUnder(dir.path, ["d0"])).toEqual([]);
    mkdirSync(join(dir.path, "e0/e1/e2"), { recursive: true });
    expect(emptyDirsUnder(dir.path, ["e0"])).toEqual(["e0/e1/e2"]);
  });
});

test("nulInput ends every path with NUL, as git's -z input wants", () => {
  expect(nulInput(["a b", "c\nd"])).toBe("a b\0c\nd\0");
  expect(nulInput([])).toBe("");
});

test("dropTemporaryObjects removes git's tmp_obj_ files from the failed call (and stale ones), keeping objects and others' recent ones", () => {
  const objects = join(dir.path, "objects");
  write("objects/ab/tmp_obj_mine", "x");
  write("objects/ab/tmp_obj_stale", "x");
  write("objects/ab/tmp_obj_other", "x");
  write("objects/ab/cdef0123", "a real object");
  write("objects/pack/tmp_obj_in_pack", "x");
  const since = Date.now() - 60_000;
  const at = (name: string, ms: number) => utimesSync(join(objects, name), ms / 1000, ms / 1000);
  at("ab/tmp_obj_mine", Date.now());
  at("ab/tmp_obj_stale", Date.now() - 2 * 3_600_000);
  at("ab/tmp_obj_other", since - 10 * 60_000);
  dropTemporaryObjects(objects, since);
  expect(readdirSync(join(objects, "ab")).sort()).toEqual(["cdef0123", "tmp_obj_other"]);
  // only the two-hex-digit folders are git's loose objects
  expect(readdirSync(join(objects, "pack"))).toEqual(["tmp_obj_in_pack"]);
  // a store with no objects folder is nothing to clean
  dropTemporaryObjects(join(dir.path, "nowhere"), since);
});
