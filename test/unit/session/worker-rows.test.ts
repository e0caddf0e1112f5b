// What the store says of background workers when no live team holds them: a worker stored as
// queued or running whose process is gone (no live lease on it, or on its lead while queued) is
// failed, and a lead continued later is told so once, in Claude Code's task-notification form.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import { acquireLease, type Lease } from "../../../src/session/lease.ts";
import { Store } from "../../../src/session/store.ts";
import { DEAD, deadWorkerNotes, workerState } from "../../../src/session/worker-rows.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let store: Store;
beforeEach(() => {
  dir = tempDir("rein-workers-");
  store = Store.open(join(dir.path, "rein.db")).store;
  store.createSession({ id: "s_lead", cwd: dir.path, model: "m", settings: null }, 1000);
});
afterEach(() => {
  store.close();
  dir.remove();
});

function worker(id: string, state: string | null, name?: string, at = 2000) {
  store.createSession({ id, cwd: dir.path, model: "m", settings: null }, at);
  store.linkChild(id, { parentId: "s_lead", toolUseId: `toolu_${id}`, agent: "worker" });
  if (state) store.setTask(id, { state, ...(name ? { name } : {}) });
  return store.getSession(id)!;
}

/** The session's lease, taken as a run of this process takes it. */
async function hold(id: string): Promise<Lease> {
  const lease = await acquireLease(store.db, id, { waitMs: 0, ttlMs: 30_000 }, new AbortController().signal);
  if (!("release" in lease)) throw new Error("the lease was taken");
  return lease;
}

test("a foreground task (no task state) is no worker", () => {
  expect(workerState(store, worker("s_fg", null))).toBeUndefined();
});

test("a worker that finished keeps its state whatever the leases", () => {
  for (const state of ["completed", "failed", "killed"]) expect(workerState(store, worker(`s_${state}`, state))).toBe(state);
});

test("a running worker is running while a run holds its own lease, dead once none does", async () => {
  const row = worker("s_run", "running");
  expect(workerState(store, row)).toBe(DEAD);
  expect(DEAD).toBe("failed (its process ended)");
  const lease = await hold("s_run");
  expect(workerState(store, row)).toBe("running");
  // the lead's lease does not keep a running worker alive: the worker holds its own
  lease.release();
  const lead = await hold("s_lead");
  expect(workerState(store, row)).toBe(DEAD);
  lead.release();
});

test("a queued worker is alive while its lead's run holds the lead's lease, dead once it does not", async () => {
  const row = worker("s_q", "queued");
  expect(workerState(store, row)).toBe(DEAD);
  const lead = await hold("s_lead");
  expect(workerState(store, row)).toBe("queued");
  expect(deadWorkerNotes(store, "s_lead")).toEqual([]);
  lead.release();
  expect(workerState(store, row)).toBe(DEAD);
});

test("deadWorkerNotes marks each dead worker failed and says so once; live and finished workers are left alone", () => {
  worker("s_dead", "running", "ana", 2000);
  worker("s_done", "completed", "bo", 3000);
  worker("s_fg", null);
  const notes = deadWorkerNotes(store, "s_lead");
  expect(notes).toHaveLength(1);
  const note = notes[0]!;
  expect(note).toStartWith("<task-notification>\n<task-id>s_dead</task-id>\n<status>failed</status>\n");
  expect(note).toContain('<summary>Agent "ana" failed: its process ended before it finished</summary>');
  expect(note).toContain("<usage><total_tokens>0</total_tokens><tool_uses>0</tool_uses>");
  expect(note).toEndWith("</task-notification>");
  expect(store.getSession("s_dead")!.task_state).toBe("failed");
  expect(store.getSession("s_done")!.task_state).toBe("completed");
  // said once: the worker is failed now, not dead-and-unreported
  expect(deadWorkerNotes(store, "s_lead")).toEqual([]);
});

test("a dead worker without a name is named by its title, or its id", () => {
  worker("s_anon", "running");
  store.updateSession("s_anon", { title: "parse the config" });
  worker("s_bare", "queued");
  const notes = deadWorkerNotes(store, "s_lead").join("\n");
  expect(notes).toContain('Agent "parse the config" failed');
  expect(notes).toContain('Agent "s_bare" failed');
});

test("another session's workers are not touched", () => {
  store.createSession({ id: "s_other", cwd: dir.path, model: "m", settings: null });
  worker("s_mine", "running");
  expect(deadWorkerNotes(store, "s_other")).toEqual([]);
  expect(store.getSession("s_mine")!.task_state).toBe("running");
});

