// The session database across versions and access: a file from the first schema migrated to the
// current one with its rows kept and usable, the read-only connection (rein sessions list where the
// store cannot be written), rein doctor's health figures, and the one-line errors of a bad path.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "../../../src/session/migrations.ts";
import { Store } from "../../../src/session/store.ts";
import { StoreError } from "../../../src/session/store-open.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let path: string;
beforeEach(() => {
  dir = tempDir("rein-schema-");
  path = join(dir.path, "rein.db");
});
afterEach(() => dir.remove());

/** A database as the first rein wrote it: schema 1, one session with a conversation and events. */
function firstSchema(): void {
  const db = new Database(path, { create: true });
  db.exec(MIGRATIONS[0] as string);
  db.exec("PRAGMA user_version = 1");
  db.query("INSERT INTO sessions (id, cwd, model, title, created_at, updated_at) VALUES ('s_old', '/w', 'claude-sonnet-4-5', 'old work', 1, 2)").run();
  const insert = db.query("INSERT INTO messages (session_id, idx, role, content, seq, status, created_at) VALUES ('s_old', ?, ?, ?, ?, 'complete', 1)");
  insert.run(0, "user", JSON.stringify([{ type: "text", text: "hello" }]), 1);
  // a reply an old rein stored with only whitespace: the provider refuses it today
  insert.run(1, "assistant", JSON.stringify([{ type: "text", text: "  \n" }]), 2);
  db.query("INSERT INTO events (session_id, seq, type, data, created_at) VALUES ('s_old', 1, 'user', ?, 1)").run(JSON.stringify({ type: "user", text: "hello" }));
  db.close();
}

test("a schema-1 database migrates to the current schema: its session, messages and events are kept, repaired where the provider would refuse them", () => {
  firstSchema();
  const { store } = Store.open(path);
  try {
    expect((store.db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(MIGRATIONS.length);
    expect(store.getSession("s_old")).toMatchObject({ id: "s_old", cwd: "/w", model: "claude-sonnet-4-5", title: "old work", settings: null, deleted_at: null, parent_id: null, task_state: null });
    const messages = store.conversation("s_old");
    expect(messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "hello" }] });
    // the whitespace-only reply was rewritten once, at the migration, into a stand-in the provider takes
    expect(messages[1]!.role).toBe("assistant");
    expect(JSON.stringify(messages[1]!.content)).not.toContain('"  \\n"');
    expect(store.events("s_old").map((e) => [e.seq, e.type])).toEqual([[1, "user"]]);
    // what the later migrations added works on the old rows
    expect(store.trashSession("s_old")).toBe(true);
    expect(store.restoreSession("s_old")).toBe(true);
    store.createSession({ id: "s_child", cwd: "/w", model: "m", settings: null });
    store.linkChild("s_child", { parentId: "s_old", toolUseId: "toolu_1", agent: "worker" });
    store.setTask("s_child", { name: "ana", state: "running" });
    expect(store.childSessions("s_old").map((r) => [r.id, r.task_name, r.task_state])).toEqual([["s_child", "ana", "running"]]);
    expect(store.appendEvent("s_old", { type: "user", text: "again" }).seq).toBe(2);
  } finally {
    store.close();
  }
});

test("opening an up-to-date database runs no migration again: a repaired row is not rewritten twice", () => {
  firstSchema();
  Store.open(path).store.close();
  const db = new Database(path);
  db.query("UPDATE messages SET content = ? WHERE idx = 1").run(JSON.stringify([{ type: "text", text: "kept as written now" }]));
  db.close();
  const { store } = Store.open(path);
  expect(store.conversation("s_old")[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "kept as written now" }] });
  store.close();
});

test("read-only: the sessions can be read, a write fails, and a database from a newer rein is refused", () => {
  const { store } = Store.open(path);
  store.createSession({ id: "s_1", cwd: "/w", model: "m", settings: null });
  store.close();
  const ro = Store.openReadOnly(path);
  expect(ro.listSessions().map((r) => r.id)).toEqual(["s_1"]);
  expect(() => ro.createSession({ id: "s_2", cwd: "/w", model: "m", settings: null })).toThrow();
  ro.close();
  const db = new Database(path);
  db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
  db.close();
  expect(() => Store.openReadOnly(path)).toThrow(`the session database was written by a newer rein (schema ${MIGRATIONS.length + 1}); upgrade rein`);
});

test("read-only on a file that is no database is one line naming the file", () => {
  writeFileSync(path, "not a database at all, just text that is long enough to be read as a header");
  const error = (() => {
    try {
      Store.openReadOnly(path);
    } catch (e) {
      return e as Error;
    }
    throw new Error("expected a refusal");
  })();
  expect(error).toBeInstanceOf(StoreError);
  expect(error.message).toStartWith(`cannot open the session database ${path}: `);
  expect(error.message).not.toContain("\n");
});

test("health: integrity, sizes and the live and trashed counts", () => {
  const { store } = Store.open(path);
  for (const id of ["s_1", "s_2", "s_3"]) store.createSession({ id, cwd: "/w", model: "m", settings: null });
  store.trashSession("s_2");
  const health = store.health();
  expect(health).toMatchObject({ integrity: "ok", sessions: 2, trashed: 1 });
  expect(health.bytes).toBeGreaterThan(0);
  expect(health.walBytes).toBeGreaterThanOrEqual(0);
  store.close();
  const memory = Store.open(":memory:").store;
  expect(memory.health()).toMatchObject({ integrity: "ok", bytes: 0, walBytes: 0, sessions: 0, trashed: 0 });
  memory.close();
});

test("a data folder where a file stands is one line saying what could not be opened", () => {
  writeFileSync(join(dir.path, "blocker"), "a file");
  expect(() => Store.open(join(dir.path, "blocker", "rein.db"))).toThrow();
  try {
    Store.open(join(dir.path, "blocker", "rein.db"));
  } catch (error) {
    expect((error as Error).message.split("\n")).toHaveLength(1);
    expect((error as Error).message).toContain(join(dir.path, "blocker"));
  }
});
