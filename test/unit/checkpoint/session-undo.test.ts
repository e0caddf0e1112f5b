// Checkpoints through a whole session: the real bash tool, the real permission engine, real git and
// files, the fake model. A turn's shell changes are recorded and shown, and undo takes them back.
import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { redoCode, undoCode } from "../../../src/checkpoint/undo.ts";
import { listCheckpoints } from "../../../src/checkpoint/undo.ts";
import type { StampedEvent } from "../../../src/agent/types.ts";
import { permissionEngine } from "../../../src/app/factory.ts";
import { Session } from "../../../src/session/session.ts";
import bash from "../../../tools/bash.ts";
import { ALLOW_ALL, type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

function workspace(files: Record<string, string> = {}): string {
  const cwd = mkdtempSync(join(kit.dir.path, "ws-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(cwd, path, ".."), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  return cwd;
}

function settings(maxFileBytes?: number) {
  return { dir: join(kit.dir.path, "checkpoints"), ...(maxFileBytes ? { maxFileBytes } : {}) };
}

/** Runs one turn whose only call is `command` through bash; returns the session and its events. */
async function turn(cwd: string, command: string, session?: Session, maxFileBytes?: number) {
  const options = { ...kit.options({ tools: [bash], rules: ALLOW_ALL }), expand: permissionEngine({ projectRoot: cwd, home: kit.dir.path, reinDirs: [] }), checkpoints: settings(maxFileBytes) };
  const s = session ?? Session.create(cwd, options);
  const events: StampedEvent[] = [];
  const off = s.subscribe((e) => events.push(e));
  kit.fake.script({ reply: [{ type: "tool_use", name: "bash", input: { command } }] }, { reply: [{ type: "text", text: "done" }] });
  const result = await s.prompt("change things");
  off();
  expect(result.status).toBe("success");
  return { session: s, checkpoint: events.find((e) => e.type === "checkpoint") as Extract<StampedEvent, { type: "checkpoint" }> | undefined };
}

const undo = (cwd: string, sessionId: string, force = false, turns = 1) => undoCode({ settings: settings(), workspace: cwd, sessionId, turns, force });

describe("a turn's shell changes", () => {
  test("are recorded, shown in the checkpoint event, and undone; redo brings them back", async () => {
    const cwd = workspace({ "a.txt": "one\n", "old.txt": "moved\n", "gone.txt": "bye\n", "src/keep.ts": "keep\n" });
    const { session, checkpoint } = await turn(cwd, "echo two > a.txt && mv old.txt new.txt && rm gone.txt && mkdir -p made/deep && echo x > made/deep/f.txt && mkdir empty");

    expect(checkpoint?.changed).toEqual(
      expect.arrayContaining([
        { status: "modified", path: "a.txt" },
        { status: "renamed", from: "old.txt", path: "new.txt" },
        { status: "deleted", path: "gone.txt" },
        { status: "added", path: "made/deep/f.txt" },
      ]),
    );
    const outcome = await undo(cwd, session.id);

    expect(outcome.type).toBe("done");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
    expect(readFileSync(join(cwd, "old.txt"), "utf8")).toBe("moved\n");
    expect(readFileSync(join(cwd, "gone.txt"), "utf8")).toBe("bye\n");
    expect(existsSync(join(cwd, "new.txt"))).toBe(false);
    expect(existsSync(join(cwd, "made"))).toBe(false);
    expect(existsSync(join(cwd, "empty"))).toBe(false);
    expect(readFileSync(join(cwd, "src/keep.ts"), "utf8")).toBe("keep\n");

    const redone = await redoCode({ settings: settings(), workspace: cwd, sessionId: session.id });
    expect(redone.type).toBe("done");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("two\n");
    expect(readFileSync(join(cwd, "made/deep/f.txt"), "utf8")).toBe("x\n");
    expect(existsSync(join(cwd, "gone.txt"))).toBe(false);
  });

  test("binary files, executable bits and symlinks inside and outside come back as they were", async () => {
    const cwd = workspace({ "run.sh": "echo hi\n" });
    writeFileSync(join(cwd, "blob.bin"), Buffer.from([0, 1, 2, 255, 0, 10]));
    chmodSync(join(cwd, "run.sh"), 0o755);
    symlinkSync("run.sh", join(cwd, "inside"));
    symlinkSync("/etc/hostname", join(cwd, "outside"));
    const { session } = await turn(cwd, "printf 'x' > blob.bin && chmod -x run.sh && rm inside && ln -sfn /etc outside && ln -s blob.bin newlink");

    expect((await undo(cwd, session.id)).type).toBe("done");
    expect([...readFileSync(join(cwd, "blob.bin"))]).toEqual([0, 1, 2, 255, 0, 10]);
    expect(statSync(join(cwd, "run.sh")).mode & 0o111).not.toBe(0);
    expect(readlinkSync(join(cwd, "inside"))).toBe("run.sh");
    expect(readlinkSync(join(cwd, "outside"))).toBe("/etc/hostname");
    expect(existsSync(join(cwd, "newlink"))).toBe(false);
    expect(lstatSync("/etc/hostname").isFile()).toBe(true);
  });

  test("a file over the size limit is listed as not covered and left alone by undo", async () => {
    const cwd = workspace({ "small.txt": "s\n" });
    const { session, checkpoint } = await turn(cwd, "head -c 5000 /dev/zero > big.dat && echo t > small.txt", undefined, 1000);

    expect(checkpoint?.uncovered).toEqual(["big.dat"]);
    const outcome = await undoCode({ settings: settings(1000), workspace: cwd, sessionId: session.id, turns: 1 });
    expect(outcome.type === "done" && outcome.uncovered).toEqual(["big.dat"]);
    expect(statSync(join(cwd, "big.dat")).size).toBe(5000);
    expect(readFileSync(join(cwd, "small.txt"), "utf8")).toBe("s\n");
  });

  test("a file under the limit before the turn that grows past it is covered: modified, not deleted; undo puts it back", async () => {
    const cwd = workspace({ "grows.dat": "x".repeat(500) });
    const { session, checkpoint } = await turn(cwd, "head -c 5000 /dev/zero > grows.dat", undefined, 1000);

    expect(checkpoint?.changed).toEqual([{ status: "modified", path: "grows.dat" }]);
    expect(checkpoint?.uncovered).toEqual([]);
    const outcome = await undoCode({ settings: settings(1000), workspace: cwd, sessionId: session.id, turns: 1 });
    expect(outcome.type === "done" && outcome.files).toEqual(["grows.dat"]);
    expect(outcome.type === "done" && outcome.uncovered).toEqual([]);
    expect(readFileSync(join(cwd, "grows.dat"), "utf8")).toBe("x".repeat(500));
    // Its new version was never kept: redo leaves the file as it is and says so.
    const redone = await redoCode({ settings: settings(1000), workspace: cwd, sessionId: session.id });
    expect(redone.type === "done" && redone.uncovered).toEqual(["grows.dat"]);
    expect(readFileSync(join(cwd, "grows.dat"), "utf8")).toBe("x".repeat(500));
  });

  test("a change the user made after the turn makes undo refuse and name the file, unless forced", async () => {
    const cwd = workspace({ "a.txt": "one\n" });
    const { session } = await turn(cwd, "echo two > a.txt");
    writeFileSync(join(cwd, "a.txt"), "mine\n");

    const refused = await undo(cwd, session.id);
    expect(refused).toMatchObject({ type: "refused", files: ["a.txt"] });
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("mine\n");
    expect((await undo(cwd, session.id, true)).type).toBe("done");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
  });

  test("honours .gitignore, never touches the workspace's own .git, and works with none", async () => {
    const cwd = workspace({ ".gitignore": "build/\n", "a.txt": "one\n", ".git/HEAD": "ref\n" });
    const { session, checkpoint } = await turn(cwd, "mkdir -p build && echo o > build/out.js && echo two > a.txt");
    expect(checkpoint?.changed).toEqual([{ status: "modified", path: "a.txt" }]);

    expect((await undo(cwd, session.id)).type).toBe("done");
    expect(readFileSync(join(cwd, "build/out.js"), "utf8")).toBe("o\n");
    expect(readFileSync(join(cwd, ".git/HEAD"), "utf8")).toBe("ref\n");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
    expect(existsSync(join(cwd, ".rein"))).toBe(false);
  });

  test("two sessions in one workspace undo only their own turns", async () => {
    const cwd = workspace({ "a.txt": "a\n", "b.txt": "b\n" });
    const first = await turn(cwd, "echo A > a.txt");
    const second = await turn(cwd, "echo B > b.txt");

    expect((await undo(cwd, first.session.id)).type).toBe("done");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("a\n");
    expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("B\n");
    expect(listCheckpoints({ settings: settings(), workspace: cwd, sessionId: second.session.id })).toHaveLength(1);
  });

  test("side effects a checkpoint cannot undo are recorded with it", async () => {
    const cwd = workspace({ "a.txt": "a\n" });
    const { checkpoint } = await turn(cwd, "git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x; echo b > a.txt");

    expect(checkpoint?.side_effects.some((line) => line.startsWith("changed the git repository: git") && line.includes("commit"))).toBe(true);
  });
});
