// The shadow store's life beyond one turn: forgotten with its session, kept under a size cap, and
// left usable by a process killed in the middle of a checkpoint. Real git, real files, real processes.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { git } from "../../../src/checkpoint/git.ts";
import { capCheckpoints, forgetCheckpoints } from "../../../src/checkpoint/prune.ts";
import { ShadowStore, workspaceDir } from "../../../src/checkpoint/shadow.ts";
import { TurnCheckpoints } from "../../../src/checkpoint/turn.ts";
import { listCheckpoints, undoCode } from "../../../src/checkpoint/undo.ts";

const root = mkdtempSync(join(tmpdir(), "rein-cp-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function setup(name: string) {
  const cwd = join(root, name, "ws");
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, "a.txt"), "a\n");
  return { cwd, settings: { dir: join(root, name, "checkpoints") } };
}

/** One turn of session `id` that writes `text` to a.txt. */
async function turn(settings: { dir: string }, cwd: string, id: string, text: string) {
  const turns = new TurnCheckpoints(settings, cwd, id);
  turns.begin(1, 0);
  await turns.before({ readOnly: false, requests: [] });
  writeFileSync(join(cwd, "a.txt"), text);
  return (await turns.end())!;
}

const exists = (place: ShadowStore["place"], sha: string) => git(place, ["cat-file", "-e", sha]).then(() => true, () => false);

test("a pruned session's checkpoints go, objects and all; another session's stay", async () => {
  const { cwd, settings } = setup("prune");
  await turn(settings, cwd, "s_gone", "gone\n");
  await turn(settings, cwd, "s_kept", "kept\n");
  const [gone] = listCheckpoints({ settings, workspace: cwd, sessionId: "s_gone" });
  const [kept] = listCheckpoints({ settings, workspace: cwd, sessionId: "s_kept" });
  const place = new ShadowStore({ dataDir: settings.dir, workspace: cwd, sessionId: "s_kept" }).place;
  // The workspace before s_gone's turn is in none of s_kept's checkpoints.
  const goneBlob = (await git(place, ["rev-parse", `${gone!.before}:a.txt`])).trim();

  expect(forgetCheckpoints(settings.dir, [{ id: "s_gone", cwd }])).toBe(1);

  expect(listCheckpoints({ settings, workspace: cwd, sessionId: "s_gone" })).toEqual([]);
  expect(await exists(place, goneBlob)).toBe(false);
  expect(await exists(place, gone!.before)).toBe(false);
  expect(await exists(place, kept!.after!)).toBe(true);
  expect(await exists(place, kept!.before)).toBe(true);
});

test("over the size cap the oldest session's checkpoints go first; the newest are kept", async () => {
  const { cwd, settings } = setup("cap");
  await turn(settings, cwd, "s_old", "old\n");
  await turn(settings, cwd, "s_new", "new\n");

  expect(capCheckpoints(workspaceDir(settings.dir, cwd), 1)).toEqual(["s_old"]);
  expect(listCheckpoints({ settings, workspace: cwd, sessionId: "s_old" })).toEqual([]);
  expect(listCheckpoints({ settings, workspace: cwd, sessionId: "s_new" })).toHaveLength(1);
});

test("a process killed in the middle of a checkpoint leaves it marked unfinished, and the next one works", async () => {
  const { cwd, settings } = setup("kill");
  const script = join(root, "kill", "turn.ts");
  writeFileSync(
    script,
    `import { TurnCheckpoints } from ${JSON.stringify(join(import.meta.dir, "../../../src/checkpoint/turn.ts"))};
const turns = new TurnCheckpoints(${JSON.stringify(settings)}, ${JSON.stringify(cwd)}, "s_killed");
turns.begin(1, 0);
await turns.before({ readOnly: false, requests: [] });
await Bun.write(${JSON.stringify(join(cwd, "a.txt"))}, "half\\n");
console.log("taken");
await new Promise(() => {});
`,
  );
  const child = Bun.spawn(["bun", script], { stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  let seen = "";
  while (!seen.includes("taken")) seen += new TextDecoder().decode((await reader.read()).value);
  child.kill("SIGKILL");
  await child.exited;
  // What git leaves when killed while it writes the index.
  const store = new ShadowStore({ dataDir: settings.dir, workspace: cwd, sessionId: "s_killed" });
  writeFileSync(`${store.place.indexFile}.lock`, "");

  const refused = await undoCode({ settings, workspace: cwd, sessionId: "s_killed", turns: 1 });
  expect(refused.type).toBe("refused");
  expect(refused.type === "refused" && refused.reason).toBe("checkpoint 1 is incomplete: its turn did not finish (rein was stopped); run again with --force to restore what it holds");
  const forced = await undoCode({ settings, workspace: cwd, sessionId: "s_killed", turns: 1, force: true });
  expect(forced.type).toBe("done");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("a\n");
  const next = await turn(settings, cwd, "s_killed", "again\n");
  expect(next).toMatchObject({ n: 2, changed: [{ status: "modified", path: "a.txt" }] });
  expect(existsSync(`${store.place.indexFile}.lock`)).toBe(false);
});

test("a process killed while git writes the checkpoint leaves the index lock; the next run's checkpoints work", async () => {
  const { cwd, settings } = setup("kill-git");
  for (let i = 0; i < 3000; i++) writeFileSync(join(cwd, `f${i}.txt`), `file ${i}\n`);
  const store = new ShadowStore({ dataDir: settings.dir, workspace: cwd, sessionId: "s_cut" });
  const lock = `${store.place.indexFile}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  const script = join(root, "kill-git", "turn.ts");
  writeFileSync(
    script,
    `import { TurnCheckpoints } from ${JSON.stringify(join(import.meta.dir, "../../../src/checkpoint/turn.ts"))};
const turns = new TurnCheckpoints(${JSON.stringify(settings)}, ${JSON.stringify(cwd)}, "s_cut");
turns.begin(1, 0);
await turns.before({ readOnly: false, requests: [] });
`,
  );
  // git holds the index lock while it hashes the 3,000 files: kill it (and rein) right then.
  const locked = new Promise<void>((resolve) => {
    const watcher = watch(dirname(lock), (_event, name) => {
      if (name !== basename(lock)) return;
      watcher.close();
      resolve();
    });
  });
  const child = Bun.spawn(["setsid", "bun", script], { stdout: "ignore", stderr: "inherit" });
  await locked;
  process.kill(-child.pid, "SIGKILL");
  await child.exited;
  expect(existsSync(lock)).toBe(true);

  const report = await turn(settings, cwd, "s_cut", "after the kill\n");
  expect(report).toMatchObject({ n: 1, changed: [{ status: "modified", path: "a.txt" }] });
  expect(report.incomplete).toBeUndefined();
  expect(existsSync(lock)).toBe(false);
  expect((await undoCode({ settings, workspace: cwd, sessionId: "s_cut", turns: 1 })).type).toBe("done");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("a\n");
}, 60_000);
