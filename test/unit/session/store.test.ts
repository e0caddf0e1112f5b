import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent } from "../../../src/agent/types.ts";
import { MIGRATIONS } from "../../../src/session/migrations.ts";
import { Store } from "../../../src/session/store.ts";
import { StoreError } from "../../../src/session/store-open.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let dbPath: string;
const opened: Store[] = [];

function open(path = dbPath) {
  const result = Store.open(path);
  opened.push(result.store);
  return result;
}

beforeEach(() => {
  dir = tempDir("rein-store-");
  dbPath = join(dir.path, "rein.db");
});

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  dir.remove();
});

const delta = (text: string): AgentEvent => ({ type: "text_delta", text });
const newSession = (store: Store, id: string, cwd = "/work/project") => store.createSession({ id, cwd, model: "claude-test-1" });

describe("opening", () => {
  test("migrations run and set user_version", () => {
    const { store, warning } = open();
    expect(warning).toBeUndefined();
    expect(store.db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
    const tables = store.db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    expect(tables).toEqual([{ name: "events" }, { name: "leases" }, { name: "mailbox" }, { name: "messages" }, { name: "sessions" }, { name: "team_members" }, { name: "team_tasks" }, { name: "teams" }]);
  });

  test("reopening an up-to-date database keeps its rows", () => {
    newSession(open().store, "s_keep");
    expect(open().store.getSession("s_keep")?.id).toBe("s_keep");
  });

  test("WAL mode is on and a busy timeout is set", () => {
    const { store } = open();
    expect(store.db.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    const { timeout } = store.db.query("PRAGMA busy_timeout").get() as { timeout: number };
    expect(timeout).toBeGreaterThanOrEqual(1000);
  });

  test("a corrupt file is moved aside byte for byte, with a warning, and a fresh database works", () => {
    const garbage = new Uint8Array(8192);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 251;
    writeFileSync(dbPath, garbage);

    const { store, warning } = open();

    const aside = readdirSync(dir.path).filter((name) => name.startsWith("rein.db.corrupt-"));
    expect(aside).toHaveLength(1);
    expect(warning).toBe(
      `the session database ${dbPath} was damaged (file is not a database); the original is kept as ${join(dir.path, aside[0]!)}, ` +
        "nothing of it could be read, and a new database was created",
    );
    expect(new Uint8Array(readFileSync(join(dir.path, aside[0]!)))).toEqual(garbage);
    newSession(store, "s_fresh");
    expect(store.appendEvent("s_fresh", delta("hi")).seq).toBe(1);
    expect(store.db.query("PRAGMA user_version").get()).toEqual({ user_version: MIGRATIONS.length });
  });

  test("a database from a newer rein is refused with a clear error, and left where it is", () => {
    const db = new Database(dbPath, { create: true });
    db.exec("PRAGMA journal_mode = WAL; CREATE TABLE future (x TEXT); INSERT INTO future VALUES ('kept'); PRAGMA user_version = 99");
    db.close();

    expect(() => Store.open(dbPath)).toThrow(StoreError);
    expect(() => Store.open(dbPath)).toThrow(/newer rein \(schema 99\).*upgrade rein/);

    expect(readdirSync(dir.path).filter((n) => n.includes("corrupt"))).toEqual([]);
    const again = new Database(dbPath, { readonly: true });
    expect(again.query("PRAGMA user_version").get()).toEqual({ user_version: 99 });
    expect(again.query("SELECT x FROM future").all()).toEqual([{ x: "kept" }]);
    again.close();
  });
});

describe("events", () => {
  test("appendEvent allocates increasing seq per session, independent across sessions", () => {
    const { store } = open();
    newSession(store, "s_one");
    newSession(store, "s_two");

    const seqs = [
      store.appendEvent("s_one", delta("a")).seq,
      store.appendEvent("s_one", delta("b")).seq,
      store.appendEvent("s_two", delta("x")).seq,
      store.appendEvent("s_one", delta("c")).seq,
      store.appendEvent("s_two", delta("y")).seq,
    ];

    expect(seqs).toEqual([1, 2, 1, 3, 2]);
    expect(store.events("s_one").map((e) => [e.seq, e.type === "text_delta" && e.text])).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);
    expect(store.events("s_one", 2).map((e) => e.seq)).toEqual([3]);
    expect(store.lastSeq("s_two")).toBe(2);
    expect(store.lastSeq("s_none")).toBe(0);
  });

  test("an appended event comes back stamped with its session id and seq", () => {
    const { store } = open();
    newSession(store, "s_stamp");
    const stamped = store.appendEvent("s_stamp", { type: "user", text: "hello" });
    expect(stamped).toEqual({ type: "user", text: "hello", session_id: "s_stamp", seq: 1 });
    expect(store.events("s_stamp")).toEqual([stamped]);
  });

  test("two Store instances on one file append to one session without a seq collision", () => {
    const a = open().store;
    const b = open().store;
    newSession(a, "s_shared");

    const seqs: number[] = [];
    for (let i = 0; i < 20; i++) {
      seqs.push(a.appendEvent("s_shared", delta(`a${i}`)).seq);
      seqs.push(b.appendEvent("s_shared", delta(`b${i}`)).seq);
    }

    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(b.events("s_shared")).toHaveLength(40);
  });

  test("two processes appending at the same time never collide", async () => {
    newSession(open().store, "s_race");
    const storeModule = join(import.meta.dir, "../../../src/session/store.ts");
    const perChild = 400;
    // Each child opens the store, says "ready", and starts appending when told, so the two usually
    // overlap (how much depends on the scheduler; a collision would show as a failed insert).
    const child = (name: string) =>
      Bun.spawn(
        [
          process.execPath,
          "-e",
          `const { Store } = await import(${JSON.stringify(storeModule)});
           const { store } = Store.open(${JSON.stringify(dbPath)});
           process.stdout.write("ready\\n");
           for await (const _ of Bun.stdin.stream()) break;
           for (let i = 0; i < ${perChild}; i++) store.appendEvent("s_race", { type: "text_delta", text: "${name}" + i });
           store.close();`,
        ],
        { stdin: "pipe", stdout: "pipe", stderr: "pipe" },
      );
    const procs = [child("p"), child("q")];
    await Promise.all(procs.map((p) => p.stdout.getReader().read()));
    for (const p of procs) {
      p.stdin.write("go\n");
      await p.stdin.end();
    }
    const codes = await Promise.all(procs.map((p) => p.exited));
    const errors = await Promise.all(procs.map((p) => new Response(p.stderr).text()));

    expect(errors).toEqual(["", ""]);
    expect(codes).toEqual([0, 0]);
    const events = open().store.events("s_race");
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 2 * perChild }, (_, i) => i + 1));
    const texts = events.map((e) => (e.type === "text_delta" ? e.text : ""));
    expect(new Set(texts).size).toBe(2 * perChild);
  });
});

describe("sessions", () => {
  test("findSession by full id, by unique prefix; ambiguous and unknown prefixes say so", () => {
    const { store } = open();
    newSession(store, "s_abc111");
    newSession(store, "s_abc222");
    newSession(store, "s_xyz999");

    expect(store.findSession("s_abc111")).toMatchObject({ id: "s_abc111" });
    expect(store.findSession("s_xy")).toMatchObject({ id: "s_xyz999" });
    const ambiguous = store.findSession("s_abc");
    expect(typeof ambiguous).toBe("string");
    expect(ambiguous).toContain("matches several sessions");
    expect(ambiguous).toContain("s_abc111");
    expect(ambiguous).toContain("s_abc222");
    const unknown = store.findSession("s_nope");
    expect(unknown).toBe('no session "s_nope" (see: rein sessions list)');
  });

  test("a prefix with LIKE wildcards matches them literally", () => {
    const { store } = open();
    newSession(store, "s_a1");
    newSession(store, "s%b1");
    expect(store.findSession("s%")).toMatchObject({ id: "s%b1" });
    expect(typeof store.findSession("s__1")).toBe("string");
  });

  test("deleteSession removes the session, its messages and its events, and nothing else", () => {
    const { store } = open();
    for (const id of ["s_gone", "s_kept"]) {
      newSession(store, id);
      const user = store.appendEvent(id, { type: "user", text: "hi" });
      store.appendMessage(id, { role: "user", content: [{ type: "text", text: "hi" }] }, user.seq);
    }

    expect(store.deleteSession("s_gone")).toBe(true);

    const count = (table: string, id: string) =>
      (store.db.query(`SELECT count(*) AS n FROM ${table} WHERE session_id = ?`).get(id) as { n: number }).n;
    expect(store.getSession("s_gone")).toBeUndefined();
    expect(count("messages", "s_gone")).toBe(0);
    expect(count("events", "s_gone")).toBe(0);
    expect(count("messages", "s_kept")).toBe(1);
    expect(count("events", "s_kept")).toBe(1);
    expect(store.deleteSession("s_gone")).toBe(false);
  });

  test("messages keep their order, seq and status", () => {
    const { store } = open();
    newSession(store, "s_msgs");
    store.appendMessage("s_msgs", { role: "user", content: [{ type: "text", text: "q" }] }, 2);
    store.appendMessage("s_msgs", { role: "assistant", content: [{ type: "text", text: "a" }] }, 5, "interrupted");

    expect(store.messages("s_msgs")).toEqual([
      { idx: 0, role: "user", content: [{ type: "text", text: "q" }], seq: 2, status: "complete" },
      { idx: 1, role: "assistant", content: [{ type: "text", text: "a" }], seq: 5, status: "interrupted" },
    ]);
  });

  test("latestSession is the most recently updated session in a cwd", () => {
    const { store } = open();
    store.createSession({ id: "s_old", cwd: "/p", model: "m" }, 1000);
    store.createSession({ id: "s_new", cwd: "/p", model: "m" }, 2000);
    store.createSession({ id: "s_other", cwd: "/q", model: "m" }, 3000);
    expect(store.latestSession("/p")?.id).toBe("s_new");
    store.updateSession("s_old", { title: "revived" }, 4000);
    expect(store.latestSession("/p")).toMatchObject({ id: "s_old", title: "revived", updated_at: 4000 });
  });
});

test("the store survives a missing data folder by creating it", () => {
  const nested = join(dir.path, "deep", "er", "rein.db");
  newSession(open(nested).store, "s_nested");
  expect(existsSync(nested)).toBe(true);
});

describe("spendEvents", () => {
  test("returns a session's prompts, turns, results and compactions in order: only what their spend is made of", () => {
    const { store } = open();
    newSession(store, "s_a");
    newSession(store, "s_b");
    const usage = { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const result: AgentEvent = { type: "result", status: "success", text: "ok", usage, cost_usd: 0.1, turns: 1, duration_ms: 5 };
    const compaction: AgentEvent = { type: "compaction", summary: "s", method: "summary", tokens_before: 9, tokens_after: 3, first_kept: 1, head: "h", pruned: [] };
    const turn: AgentEvent = { type: "assistant", content: [{ type: "text", text: "answer" }], stop_reason: "end_turn", usage, cost_usd: 0.1, model: "m" };
    store.appendEvent("s_a", { type: "user", text: "hi" });
    store.appendEvent("s_a", delta("answer"));
    store.appendEvent("s_a", turn);
    store.appendEvent("s_a", result);
    store.appendEvent("s_b", result);
    store.appendEvent("s_a", compaction);
    store.appendEvent("s_a", { ...compaction, usage, cost_usd: null, outside_run: true });
    expect(store.spendEvents("s_a")).toEqual([
      { type: "user", cost_usd: null },
      { type: "assistant", usage, cost_usd: 0.1 },
      { type: "result", usage, cost_usd: 0.1 },
      { type: "compaction", cost_usd: null },
      { type: "compaction", usage, cost_usd: null, outside_run: true },
    ]);
  });
});
