// The trash (rm moves there, restore brings back), prune (explicit, dry-run first) and migration 3.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { applyMigration, MIGRATIONS } from "../../../src/session/migrations.ts";
import { Store, TRASH_KEEP_MS } from "../../../src/session/store.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 29, 12);

let dir: TempDir;
let dbPath: string;
const opened: Store[] = [];

function open(path = dbPath): Store {
  const { store } = Store.open(path);
  opened.push(store);
  return store;
}

beforeEach(() => {
  dir = tempDir("rein-trash-");
  dbPath = join(dir.path, "rein.db");
});

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  dir.remove();
});

/** A session with one user message and its event, last updated at `updatedAt`. */
function session(store: Store, id: string, updatedAt = NOW, cwd = "/p"): void {
  store.createSession({ id, cwd, model: "claude-test-1" }, updatedAt);
  const user = store.appendEvent(id, { type: "user", text: `hi from ${id}` }, updatedAt);
  store.appendMessage(id, { role: "user", content: [{ type: "text", text: `hi from ${id}` }] }, user.seq, "complete", updatedAt);
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
const count = (store: Store, table: string, id: string) =>
  (store.db.query(`SELECT count(*) AS n FROM ${table} WHERE session_id = ?`).get(id) as { n: number }).n;

describe("trash", () => {
  test("a trashed session leaves list, latest and find, shows in the trash with its rows kept, and restores whole", () => {
    const store = open();
    session(store, "s_old", NOW - 2 * HOUR);
    session(store, "s_new", NOW - HOUR);

    expect(store.trashSession("s_new", NOW)).toBe(true);

    expect(ids(store.listSessions())).toEqual(["s_old"]);
    expect(ids(store.listSessions({ cwd: "/p" }))).toEqual(["s_old"]);
    expect(store.latestSession("/p")?.id).toBe("s_old");
    expect(store.findSession("s_new")).toBe("session s_new is in the trash (rein sessions restore s_new brings it back)");
    expect(store.findSession("s_n")).toBe("session s_new is in the trash (rein sessions restore s_new brings it back)");
    expect(store.listTrash()).toEqual([expect.objectContaining({ id: "s_new", deleted_at: NOW })]);
    expect(store.findSession("s_n", "trash")).toMatchObject({ id: "s_new" });
    expect(count(store, "messages", "s_new")).toBe(1);
    expect(count(store, "events", "s_new")).toBe(1);

    expect(store.restoreSession("s_new")).toBe(true);

    expect(ids(store.listSessions())).toEqual(["s_new", "s_old"]);
    expect(store.listTrash()).toEqual([]);
    expect(store.findSession("s_new")).toMatchObject({ id: "s_new", deleted_at: null });
    expect(store.messages("s_new").map((m) => m.content)).toEqual([[{ type: "text", text: "hi from s_new" }]]);
  });

  test("trashing twice, restoring a live session, and unknown ids all answer false", () => {
    const store = open();
    session(store, "s_one");
    expect(store.restoreSession("s_one")).toBe(false);
    expect(store.trashSession("s_one", NOW)).toBe(true);
    expect(store.trashSession("s_one", NOW + 5)).toBe(false);
    expect(store.listTrash()[0]?.deleted_at).toBe(NOW);
    expect(store.trashSession("s_none", NOW)).toBe(false);
    expect(store.restoreSession("s_none")).toBe(false);
    expect(store.findSession("s_none", "trash")).toBe('no session "s_none" in the trash (see: rein sessions trash)');
    expect(store.restoreSession("s_one")).toBe(true);
    expect(store.findSession("s_one", "trash")).toBe("session s_one is not in the trash");
  });

  test("a prefix shared by a live and a trashed session finds the one asked for", () => {
    const store = open();
    session(store, "s_abc1");
    session(store, "s_abc2");
    store.trashSession("s_abc2", NOW);
    expect(store.findSession("s_abc")).toMatchObject({ id: "s_abc1" });
    expect(store.findSession("s_abc", "trash")).toMatchObject({ id: "s_abc2" });
  });

  test("the trash survives reopening the database", () => {
    session(open(), "s_kept");
    open().trashSession("s_kept", NOW);
    expect(ids(open().listTrash())).toEqual(["s_kept"]);
  });
});

describe("prune", () => {
  function fill(store: Store): void {
    session(store, "s_fresh", NOW - HOUR);
    session(store, "s_stale", NOW - 40 * DAY);
    session(store, "s_trash_recent", NOW - 60 * DAY);
    store.trashSession("s_trash_recent", NOW - 29 * DAY);
    session(store, "s_trash_old", NOW - 2 * DAY);
    store.trashSession("s_trash_old", NOW - 31 * DAY);
  }

  test("prunable lists stale live sessions and trash older than 30 days, and removes nothing", () => {
    const store = open();
    fill(store);

    expect(ids(store.prunable(30 * DAY, NOW)).sort()).toEqual(["s_stale", "s_trash_old"]);
    expect(ids(store.prunable(undefined, NOW))).toEqual(["s_trash_old"]);

    expect(ids(store.listSessions()).sort()).toEqual(["s_fresh", "s_stale"]);
    expect(ids(store.listTrash()).sort()).toEqual(["s_trash_old", "s_trash_recent"]);
  });

  test("pruneSessions removes exactly what prunable listed, with their messages and events, and returns it", () => {
    const store = open();
    fill(store);
    const planned = ids(store.prunable(30 * DAY, NOW));

    const removed = store.pruneSessions(30 * DAY, NOW);

    expect(ids(removed)).toEqual(planned);
    for (const id of planned) {
      expect(store.getSession(id)).toBeUndefined();
      expect(count(store, "messages", id)).toBe(0);
      expect(count(store, "events", id)).toBe(0);
    }
    expect(ids(store.listSessions())).toEqual(["s_fresh"]);
    expect(ids(store.listTrash())).toEqual(["s_trash_recent"]);
    expect(store.pruneSessions(30 * DAY, NOW)).toEqual([]);
  });

  test("trash is kept 30 days, measured from when it was trashed, not from its last update", () => {
    const store = open();
    session(store, "s_t", NOW - 100 * DAY);
    store.trashSession("s_t", NOW);
    expect(store.pruneSessions(DAY, NOW + TRASH_KEEP_MS - 1)).toEqual([]);
    expect(ids(store.pruneSessions(undefined, NOW + TRASH_KEEP_MS + 1))).toEqual(["s_t"]);
  });
});

test("migration 3 upgrades a database written at version 2 and keeps its rows, all live", () => {
  const old = new Database(dbPath, { create: true });
  old.exec("PRAGMA journal_mode = WAL");
  applyMigration(old, 1);
  applyMigration(old, 2);
  old.exec("PRAGMA user_version = 2");
  old.query(`INSERT INTO sessions (id, cwd, model, title, created_at, updated_at, settings) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
    "s_v2",
    "/p",
    "claude-test-1",
    "from version 2",
    NOW,
    NOW,
    '{"mode":"plan"}',
  );
  old.query(`INSERT INTO messages (session_id, idx, role, content, seq, status, created_at) VALUES ('s_v2', 0, 'user', '[{"type":"text","text":"old"}]', 1, 'complete', ?)`).run(NOW);
  old.query(`INSERT INTO events (session_id, seq, type, data, created_at) VALUES ('s_v2', 1, 'user', '{"type":"user","text":"old"}', ?)`).run(NOW);
  old.close();

  const store = open();

  expect(store.db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
  expect(store.getSession("s_v2")).toEqual({
    id: "s_v2",
    cwd: "/p",
    model: "claude-test-1",
    title: "from version 2",
    created_at: NOW,
    updated_at: NOW,
    settings: '{"mode":"plan"}',
    deleted_at: null,
    parent_id: null,
    parent_tool_use_id: null,
    agent: null,
    task_name: null,
    task_state: null,
  });
  expect(ids(store.listSessions())).toEqual(["s_v2"]);
  expect(store.messages("s_v2")).toEqual([{ idx: 0, role: "user", content: [{ type: "text", text: "old" }], seq: 1, status: "complete" }]);
  expect(store.events("s_v2")).toEqual([{ type: "user", text: "old", session_id: "s_v2", seq: 1 }]);
  expect(store.trashSession("s_v2", NOW)).toBe(true);
  expect(ids(store.listTrash())).toEqual(["s_v2"]);
});
