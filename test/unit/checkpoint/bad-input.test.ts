// Checkpoints on hostile workspaces: 50,000 files, a 1 GB file, a nested repository, a disk that
// fills while a checkpoint is written. Real git, real files, a real tmpfs when the tests run as root.
import { afterAll, expect, test } from "bun:test";
import { closeSync, existsSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git } from "../../../src/checkpoint/git.ts";
import { ShadowStore, workspaceDir } from "../../../src/checkpoint/shadow.ts";
import { TurnCheckpoints, type CheckpointSettings } from "../../../src/checkpoint/turn.ts";
import { undoCode } from "../../../src/checkpoint/undo.ts";

const root = mkdtempSync(join(tmpdir(), "rein-cp-bad-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function setup(name: string) {
  const cwd = join(root, name, "ws");
  mkdirSync(cwd, { recursive: true });
  return { cwd, settings: { dir: join(root, name, "checkpoints"), capBytes: 0 } as CheckpointSettings };
}

/** One turn of session `id` whose only call may change anything (a shell command): `change` runs as that call. */
async function turn(settings: CheckpointSettings, cwd: string, id: string, change: () => void) {
  const turns = new TurnCheckpoints(settings, cwd, id);
  turns.begin(1, 0);
  await turns.before({ readOnly: false, requests: [] });
  change();
  const report = await turns.end();
  turns.close();
  return report!;
}

const run = (cwd: string, command: string) => {
  const done = Bun.spawnSync(["bash", "-c", command], { cwd, stderr: "pipe" });
  if (done.exitCode !== 0) throw new Error(done.stderr.toString());
};

test("a 50,000-file workspace: the files a turn changed, added, deleted and renamed are listed and undone", async () => {
  const { cwd, settings } = setup("many");
  for (let d = 0; d < 500; d++) {
    mkdirSync(join(cwd, `pkg${d}`));
    for (let f = 0; f < 100; f++) writeFileSync(join(cwd, `pkg${d}`, `m${f}.js`), `export const v = ${d * 100 + f};\n`);
  }
  const report = await turn(settings, cwd, "s_many", () => {
    writeFileSync(join(cwd, "pkg7/m7.js"), "changed\n");
    rmSync(join(cwd, "pkg400/m1.js"));
    run(cwd, "mv pkg250/m50.js pkg250/renamed.js && mkdir -p pkg500 && echo new > pkg500/new.js");
  });

  expect(report.changed).toEqual(
    expect.arrayContaining([
      { status: "modified", path: "pkg7/m7.js" },
      { status: "deleted", path: "pkg400/m1.js" },
      { status: "renamed", from: "pkg250/m50.js", path: "pkg250/renamed.js" },
      { status: "added", path: "pkg500/new.js" },
    ]),
  );
  expect(report.changed).toHaveLength(4);
  const outcome = await undoCode({ settings, workspace: cwd, sessionId: "s_many", turns: 1 });
  expect(outcome.type === "done" && outcome.files.sort()).toEqual(["pkg250/m50.js", "pkg250/renamed.js", "pkg400/m1.js", "pkg500/new.js", "pkg7/m7.js"]);
  expect(readFileSync(join(cwd, "pkg7/m7.js"), "utf8")).toBe("export const v = 707;\n");
  expect(readFileSync(join(cwd, "pkg400/m1.js"), "utf8")).toBe("export const v = 40001;\n");
  expect(readFileSync(join(cwd, "pkg250/m50.js"), "utf8")).toBe("export const v = 25050;\n");
  expect(existsSync(join(cwd, "pkg250/renamed.js"))).toBe(false);
  expect(existsSync(join(cwd, "pkg500"))).toBe(false);
  rmSync(join(root, "many"), { recursive: true, force: true });
}, 240_000);

test("a 1 GB file is listed as not covered, never stored, and left as it is by undo", async () => {
  const { cwd, settings } = setup("huge");
  writeFileSync(join(cwd, "a.txt"), "a\n");
  const report = await turn(settings, cwd, "s_huge", () => {
    // Sparse: a gigabyte by its size, nothing on disk.
    const fd = openSync(join(cwd, "disk.img"), "w");
    ftruncateSync(fd, 2 ** 30);
    closeSync(fd);
    writeFileSync(join(cwd, "a.txt"), "b\n");
  });

  expect(report.uncovered).toEqual(["disk.img"]);
  expect(report.changed).toEqual([{ status: "modified", path: "a.txt" }]);
  const place = new ShadowStore({ dataDir: settings.dir, workspace: cwd, sessionId: "s_huge" }).place;
  const objects = await git(place, ["count-objects", "-v"]);
  expect(Number(/^size: (\d+)/m.exec(objects)![1]) + Number(/^size-pack: (\d+)/m.exec(objects)![1])).toBeLessThan(1024);
  const outcome = await undoCode({ settings, workspace: cwd, sessionId: "s_huge", turns: 1 });
  expect(outcome.type === "done" && outcome.uncovered).toEqual(["disk.img"]);
  expect(statSync(join(cwd, "disk.img")).size).toBe(2 ** 30);
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("a\n");
});

test("a nested repository (a submodule's checkout) is its own git's business: listed as not covered, left as it is by undo", async () => {
  const { cwd, settings } = setup("nested");
  writeFileSync(join(cwd, "top.txt"), "top\n");
  mkdirSync(join(cwd, "vendor/lib"), { recursive: true });
  run(join(cwd, "vendor/lib"), "git init -q . && echo inner > inner.txt");
  const report = await turn(settings, cwd, "s_nested", () => {
    writeFileSync(join(cwd, "vendor/lib/inner.txt"), "changed inside\n");
    writeFileSync(join(cwd, "top.txt"), "changed\n");
  });

  expect(report.uncovered).toEqual(["vendor/lib/"]);
  expect(report.changed).toEqual([{ status: "modified", path: "top.txt" }]);
  const outcome = await undoCode({ settings, workspace: cwd, sessionId: "s_nested", turns: 1 });
  expect(outcome.type === "done" && outcome.uncovered).toEqual(["vendor/lib/"]);
  expect(readFileSync(join(cwd, "top.txt"), "utf8")).toBe("top\n");
  expect(readFileSync(join(cwd, "vendor/lib/inner.txt"), "utf8")).toBe("changed inside\n");
});

/**
 * A data folder that cannot take more than a few KB: a small tmpfs as root; else (no mount) a store
 * whose objects folder is read-only, which git meets the same way: it cannot write an object.
 */
async function fullDisk(dir: string, cwd: string): Promise<() => void> {
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0 && Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]).exitCode === 0) {
    return () => void Bun.spawnSync(["umount", "-l", dir]);
  }
  await new ShadowStore({ dataDir: join(dir, "store"), workspace: cwd, sessionId: "s_setup" }).snapshot();
  const objects = join(workspaceDir(join(dir, "store"), cwd), "git", "objects");
  run(objects, "chmod -R a-w .");
  return () => run(objects, "chmod -R u+w .");
}

test("a disk that fills while a checkpoint is written: the turn goes on, the checkpoint is marked incomplete, undo says so", async () => {
  const { cwd } = setup("full");
  const dir = join(root, "full", "data");
  const release = await fullDisk(dir, cwd);
  try {
    const settings = { dir: join(dir, "store"), capBytes: 0 };
    // Random bytes do not compress: the object git writes does not fit.
    writeFileSync(join(cwd, "data.bin"), crypto.getRandomValues(new Uint8Array(60_000)));
    writeFileSync(join(cwd, "a.txt"), "a\n");
    let ran = false;
    const report = await turn(settings, cwd, "s_full", () => {
      writeFileSync(join(cwd, "a.txt"), "b\n");
      ran = true;
    });

    expect(ran).toBe(true);
    expect(report.incomplete).toStartWith("the workspace could not be recorded before the turn (git ");
    const outcome = await undoCode({ settings, workspace: cwd, sessionId: "s_full", turns: 1 });
    expect(outcome.type).toBe("refused");
    expect(outcome.type === "refused" && outcome.reason).toStartWith("checkpoint 1 is incomplete: the workspace could not be recorded before the turn (");
    expect(outcome.type === "refused" && outcome.reason).toEndWith("; it cannot be restored");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("b\n");
  } finally {
    release();
  }
});
