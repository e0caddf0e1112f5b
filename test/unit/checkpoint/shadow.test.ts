// The shadow store on a real workspace and real git: snapshots as trees, what changed between two
// (added, modified, deleted, renamed, mode), the patch, restoring paths, empty folders, ignored
// files, a data folder inside the workspace leaving itself out, and refs that keep trees.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ShadowStore, workspaceDir } from "../../../src/checkpoint/shadow.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let work: string;
let data: string;
beforeEach(() => {
  dir = tempDir("rein-shadow-");
  work = join(dir.path, "work");
  data = join(dir.path, "data");
  mkdirSync(work, { recursive: true });
});
afterEach(() => dir.remove());

const write = (path: string, text: string) => {
  const file = join(work, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};
const read = (path: string) => readFileSync(join(work, path), "utf8");
const store = (sessionId = "s_1", over: Partial<ConstructorParameters<typeof ShadowStore>[0]> = {}) => new ShadowStore({ dataDir: data, workspace: work, sessionId, ...over });

test("each workspace gets its own folder under the checkpoints folder, by its real path", () => {
  const a = workspaceDir(data, work);
  expect(a).toStartWith(`${data}/`);
  expect(a.slice(data.length + 1)).toMatch(/^[0-9a-f]{16}$/);
  expect(workspaceDir(data, `${work}/.`)).toBe(a);
  expect(workspaceDir(data, dir.path)).not.toBe(a);
});

test("two snapshots: what changed between them, with statuses, and renames paired when asked", async () => {
  write("keep.txt", "same");
  write("edit.txt", "before");
  write("gone.txt", "bye");
  write("old-name.txt", "a file that moves, long enough for git to pair it\n".repeat(5));
  write("run.sh", "echo hi");
  const s = store();
  const before = await s.snapshot();
  write("edit.txt", "after");
  rmSync(join(work, "gone.txt"));
  write("new.txt", "hello");
  renameSync(join(work, "old-name.txt"), join(work, "new-name.txt"));
  chmodSync(join(work, "run.sh"), 0o755);
  const after = await s.snapshot();
  expect(after.tree).not.toBe(before.tree);
  expect(after.structural).toBe(true);
  const byPath = (changes: Awaited<ReturnType<ShadowStore["diff"]>>) => Object.fromEntries(changes.map((c) => [c.path, c.from ? `${c.status} from ${c.from}` : c.status]));
  expect(byPath(await s.diff(before.tree, after.tree))).toEqual({
    "edit.txt": "modified",
    "gone.txt": "deleted",
    "new.txt": "added",
    "old-name.txt": "deleted",
    "new-name.txt": "added",
    "run.sh": "mode",
  });
  expect(byPath(await s.diff(before.tree, after.tree, true))).toMatchObject({ "new-name.txt": "renamed from old-name.txt" });
  expect(await s.diff(after.tree, after.tree)).toEqual([]);
});

test("a snapshot with nothing changed is the same tree; one of given paths reads only those", async () => {
  write("a.txt", "1");
  write("b.txt", "1");
  const s = store();
  const first = await s.snapshot();
  const again = await s.snapshot();
  expect(again.tree).toBe(first.tree);
  expect(again.changed).toEqual([]);
  write("a.txt", "2");
  write("b.txt", "2");
  const onlyA = await s.snapshot({ paths: ["a.txt"] });
  expect(onlyA.changed).toEqual(["a.txt"]);
  expect((await s.diff(first.tree, onlyA.tree)).map((c) => c.path)).toEqual(["a.txt"]);
  expect((await s.snapshot({ paths: [] })).tree).toBe(onlyA.tree);
});

test("the patch is a unified diff of the two trees", async () => {
  write("src/main.ts", "const a = 1;\n");
  const s = store();
  const before = await s.snapshot();
  write("src/main.ts", "const a = 2;\n");
  const after = await s.snapshot();
  const patch = await s.patch(before.tree, after.tree);
  expect(patch).toContain("diff --git a/src/main.ts b/src/main.ts");
  expect(patch).toContain("-const a = 1;");
  expect(patch).toContain("+const a = 2;");
});

test("restore brings the given paths back as the older tree has them: contents, modes, and files it did not have removed", async () => {
  write("edit.txt", "original");
  write("script.sh", "echo 1");
  const s = store();
  const before = await s.snapshot();
  write("edit.txt", "changed");
  write("added.txt", "new");
  chmodSync(join(work, "script.sh"), 0o755);
  write("untouched.txt", "not asked for");
  const after = await s.snapshot();
  await s.restore(before.tree, after.tree, ["edit.txt", "added.txt", "script.sh"]);
  expect(read("edit.txt")).toBe("original");
  expect(existsSync(join(work, "added.txt"))).toBe(false);
  expect(statSync(join(work, "script.sh")).mode & 0o111).toBe(0);
  expect(read("untouched.txt")).toBe("not asked for");
  // and forward again
  await s.restore(after.tree, before.tree, ["edit.txt", "added.txt"]);
  expect(read("edit.txt")).toBe("changed");
  expect(read("added.txt")).toBe("new");
});

// A repository's .gitattributes can ask git to convert files on the way in; the store keeps bytes.
const CONVERTING = "* text=auto\n*.e eol=crlf\n*.u16 working-tree-encoding=UTF-16LE\n*.id ident\n";
const ORIGINALS: Record<string, Buffer> = {
  "crlf.txt": Buffer.from("one\r\ntwo\r\n"),
  "mixed.e": Buffer.from("a\r\nb\n"),
  "wide.u16": Buffer.from("h\0i\0\n\0", "latin1"),
  "keyword.id": Buffer.from("$Id: 0123456789abcdef0123456789abcdef01234567 $\n"),
};

async function roundTrip(s: ShadowStore): Promise<Record<string, string>> {
  const before = await s.snapshot();
  for (const path of Object.keys(ORIGINALS)) write(path, "changed\n");
  const after = await s.snapshot();
  await s.restore(before.tree, after.tree, Object.keys(ORIGINALS));
  return Object.fromEntries(Object.keys(ORIGINALS).map((path) => [path, readFileSync(join(work, path)).toString("hex")]));
}

const originalsHex = () => Object.fromEntries(Object.entries(ORIGINALS).map(([path, bytes]) => [path, bytes.toString("hex")]));

test("restore puts back the bytes a file had, whatever the workspace's .gitattributes ask git to convert", async () => {
  write(".gitattributes", CONVERTING);
  for (const [path, bytes] of Object.entries(ORIGINALS)) writeFileSync(join(work, path), bytes);
  expect(await roundTrip(store())).toEqual(originalsHex());
});

test("a store made before it kept bytes is mended when it is opened", async () => {
  write(".gitattributes", CONVERTING);
  for (const [path, bytes] of Object.entries(ORIGINALS)) writeFileSync(join(work, path), bytes);
  await store().snapshot();
  const attributes = join(workspaceDir(data, work), "git", "info", "attributes");
  expect(readFileSync(attributes, "utf8")).toContain("-text");
  rmSync(attributes);
  expect(await roundTrip(store("s_2"))).toEqual(originalsHex());
});

test("holds says which paths a tree has", async () => {
  write("a.txt", "a");
  write("dir/b.txt", "b");
  const s = store();
  const snap = await s.snapshot();
  expect((await s.holds(snap.tree, ["a.txt", "dir/b.txt", "missing.txt"])).sort()).toEqual(["a.txt", "dir/b.txt"]);
  expect(await s.holds(snap.tree, [])).toEqual([]);
  expect(await s.holds("", ["a.txt"])).toEqual([]);
});

test(".gitignore'd files are not recorded unless asked for by path (a file rein's tools write)", async () => {
  write(".gitignore", "build/\n*.log\n");
  write("build/out.js", "compiled");
  write("debug.log", "noise");
  write("src/a.ts", "a");
  const s = store();
  const snap = await s.snapshot();
  expect((await s.holds(snap.tree, ["build/out.js", "debug.log", "src/a.ts"])).sort()).toEqual(["src/a.ts"]);
  const recorded = await s.record(["debug.log"]);
  expect(await s.holds(recorded.tree, ["debug.log"])).toEqual(["debug.log"]);
});

test("empty folders are listed beside the tree (git keeps none); folders to watch include them", async () => {
  mkdirSync(join(work, "empty", "deeper"), { recursive: true });
  write("src/a.ts", "a");
  const s = store();
  const snap = await s.snapshot();
  expect(snap.emptyDirs).toEqual(["empty/deeper"]);
  expect((await s.folders(snap)).sort()).toEqual(["empty", "empty/deeper", "src"]);
  // once it holds a file it is no longer listed as empty
  write("empty/deeper/now.txt", "x");
  expect((await s.snapshot()).emptyDirs).toEqual([]);
});

test("a data folder inside the workspace leaves itself out of its own snapshots", async () => {
  const inside = join(work, ".rein-data");
  write("src/a.ts", "a");
  const s = new ShadowStore({ dataDir: inside, workspace: work, sessionId: "s_1" });
  const snap = await s.snapshot();
  const again = await s.snapshot();
  expect(again.changed).toEqual([]);
  const tree = await s.holds(snap.tree, ["src/a.ts", ".rein-data"]);
  expect(tree).toEqual(["src/a.ts"]);
});

test("a second session of the same workspace starts from the first's index and records the same tree", async () => {
  write("a.txt", "a");
  const one = await store("s_1").snapshot();
  const second = store("s_2");
  const two = await second.snapshot();
  expect(two.tree).toBe(one.tree);
  expect(existsSync(join(workspaceDir(data, work), "index", "s_2"))).toBe(true);
});

test("files over the size limit are listed as not covered and never stored", async () => {
  write("small.txt", "x");
  write("big.bin", "y".repeat(5000));
  const s = store("s_1", { maxFileBytes: 1000 });
  const snap = await s.snapshot();
  expect(snap.uncovered).toEqual(["big.bin"]);
  expect(await s.holds(snap.tree, ["big.bin", "small.txt"])).toEqual(["small.txt"]);
});

test("pruneDirs removes folders left empty that the target does not hold, deepest first, keeping the rest", async () => {
  mkdirSync(join(work, "a", "b", "c"), { recursive: true });
  mkdirSync(join(work, "keep", "me"), { recursive: true });
  write("full/file.txt", "x");
  const s = store();
  s.pruneDirs(["a/b/c/gone.txt", "keep/me/gone.txt", "full/gone.txt"], new Set(["keep/me"]));
  expect(existsSync(join(work, "a"))).toBe(false);
  expect(existsSync(join(work, "keep", "me"))).toBe(true);
  expect(existsSync(join(work, "full", "file.txt"))).toBe(true);
});

test("keep writes refs for well-formed trees only", async () => {
  write("a.txt", "a");
  const s = store();
  const snap = await s.snapshot();
  s.keep([["s_1/1", snap.tree], ["s_1/bad", "not-a-tree"]]);
  const refs = join(workspaceDir(data, work), "git", "refs", "rein");
  expect(readFileSync(join(refs, "s_1", "1"), "utf8")).toBe(`${snap.tree}\n`);
  expect(existsSync(join(refs, "s_1", "bad"))).toBe(false);
});
