// Checkpoints go with their session: when a session is removed for good (rein sessions prune), its
// journal, index, redo file and refs go, and git drops the objects nothing refers to any more. A size
// cap drops the oldest sessions' checkpoints of a workspace first.
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { gitEnv } from "./git.ts";
import { journalPath } from "./journal.ts";
import { workspaceDir } from "./shadow.ts";

/** The default cap of one workspace's shadow store. */
export const DEFAULT_CAP_BYTES = 2 * 1024 * 1024 * 1024;

export type Forgettable = { id: string; cwd: string };

/** Removes the checkpoints of these sessions; returns how many sessions had some. */
export function forgetCheckpoints(checkpointsDir: string, sessions: readonly Forgettable[]): number {
  const touched = new Set<string>();
  let forgotten = 0;
  for (const session of sessions) {
    const dir = workspaceDir(checkpointsDir, session.cwd);
    if (!existsSync(dir)) continue;
    if (removeSession(dir, session.id)) forgotten++;
    touched.add(dir);
  }
  for (const dir of touched) collect(dir);
  return forgotten;
}

/** Keeps a workspace's store under `cap` bytes by forgetting its oldest sessions' checkpoints; the sessions forgotten. */
export function capCheckpoints(workspaceStore: string, cap = DEFAULT_CAP_BYTES): string[] {
  const forgotten: string[] = [];
  const journals = join(workspaceStore, "journal");
  if (!existsSync(journals)) return forgotten;
  const oldestFirst = readdirSync(journals)
    .filter((name) => name.endsWith(".json"))
    .map((name) => ({ id: name.slice(0, -5), mtime: statSync(join(journals, name)).mtimeMs }))
    .sort((a, b) => a.mtime - b.mtime);
  // The newest session keeps its checkpoints whatever their size.
  while (oldestFirst.length > 1 && objectBytes(workspaceStore) > cap) {
    const { id } = oldestFirst.shift()!;
    removeSession(workspaceStore, id);
    collect(workspaceStore);
    forgotten.push(id);
  }
  return forgotten;
}

function removeSession(dir: string, id: string): boolean {
  const journal = journalPath(dir, id);
  const had = existsSync(journal);
  for (const path of [journal, join(dir, "index", id), join(dir, "git", "refs", "rein", id), join(dir, "outside", id)]) rmSync(path, { recursive: true, force: true });
  return had;
}

/** Drops the objects no session's refs reach any more. */
function collect(dir: string): void {
  const gitDir = join(dir, "git");
  if (!existsSync(gitDir)) return;
  const env = gitEnv({ gitDir, workTree: dir, indexFile: join(dir, "index", ".prune") });
  Bun.spawnSync(["git", "prune", "--expire=now"], { cwd: dir, env, stdout: "ignore", stderr: "ignore" });
}

/** The bytes of a store's objects (git count-objects). */
function objectBytes(dir: string): number {
  const gitDir = join(dir, "git");
  const env = gitEnv({ gitDir, workTree: dir, indexFile: join(dir, "index", ".prune") });
  const out = Bun.spawnSync(["git", "count-objects", "-v"], { cwd: dir, env, stdout: "pipe", stderr: "ignore" }).stdout.toString();
  const kib = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, "m").exec(out)?.[1] ?? 0);
  return (kib("size") + kib("size-pack")) * 1024;
}
