// The session lease through real Sessions on one SQLite file: a second driver of a session waits a
// bounded time or is refused; it takes over from a holder that died or let its lease expire; opening
// a session another process drives leaves its store alone. Two Store connections stand for two processes.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { hostname } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { acquireLease, tryLease, type LeaseRow } from "../../../src/session/lease.ts";
import { SessionHub } from "../../../src/server/hub.ts";
import { Session, type SessionOptions } from "../../../src/session/session.ts";
import { Store } from "../../../src/session/store.ts";
import { eventLog } from "../../support/event-log.ts";
import { conversationProblems, sentMessages, type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
let other: Store;
beforeEach(() => {
  kit = useShared();
  other = Store.open(join(kit.dir.path, "rein.db")).store;
});
afterEach(() => other.close());

/** Options for a session driven through the second connection (the "other process"). */
function otherOptions(waitMs: number): SessionOptions {
  return { ...kit.options(), store: other, lease: { waitMs } };
}

function leaseOf(id: string): LeaseRow | undefined {
  return (kit.store.db.query("SELECT * FROM leases WHERE session_id = ?").get(id) as LeaseRow | null) ?? undefined;
}

test("a second driver is refused after its bounded wait, with who holds the session; the run stores nothing", async () => {
  const { session, log } = kit.create();
  kit.fake.script({ hang: true, afterText: "working" });
  const first = session.prompt("one");
  await log.waitFor("text_delta");
  expect(leaseOf(session.id)).toMatchObject({ pid: process.pid });

  const second = Session.open(kit.store.getSession(session.id)!, otherOptions(30));
  const refused = await second.prompt("two");

  expect(refused).toMatchObject({ type: "result", status: "error", turns: 0 });
  expect(refused.error).toMatch(new RegExp(`^session ${session.id} is in use by another rein \\(pid ${process.pid}, since \\d\\d:\\d\\d:\\d\\d UTC\\); waited [\\d.]+ s for it\\. Try again when that run has finished`));
  expect(kit.fake.requests).toHaveLength(1);
  expect(kit.store.messages(session.id).map((m) => m.role)).toEqual(["user"]);
  session.abort();
  expect((await first).status).toBe("interrupted");
  expect(leaseOf(session.id)).toBeUndefined();
});

test("a second driver that waits gets the session when the first run ends, and sends the whole conversation", async () => {
  const { session } = kit.create();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  kit.fake.script(
    { reply: [{ type: "tool_use", name: "gate", input: {} }] },
    { reply: [{ type: "text", text: "First done." }] },
    { reply: [{ type: "text", text: "Second done." }] },
  );
  const gated = { ...kit.options(), tools: [{ name: "gate", description: "waits", input: v.object({}), run: async () => (await gate, "opened") }] };
  const driver = Session.open(kit.store.getSession(session.id)!, gated);
  const driverLog = eventLog(driver);
  const first = driver.prompt("one");
  await driverLog.waitFor("tool_start");

  const second = Session.open(kit.store.getSession(session.id)!, otherOptions(60_000));
  const waiting = second.prompt("two");
  release();
  expect((await first).status).toBe("success");
  expect((await waiting).status).toBe("success");

  const sent = sentMessages(kit.fake.requests.at(-1));
  expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  expect(conversationProblems(sent)).toEqual([]);
  expect(conversationProblems(kit.store.conversation(session.id))).toEqual([]);
});

test("a holder that died is taken over at once, and its half-done run is repaired under the new lease", async () => {
  const { session } = kit.create();
  kit.store.appendMessage(session.id, { role: "user", content: [{ type: "text", text: "run it" }] }, kit.store.appendEvent(session.id, { type: "user", text: "run it" }).seq);
  const call = { type: "tool_use" as const, id: "toolu_dead", name: "bash", input: { command: "make" } };
  kit.store.appendMessage(session.id, { role: "assistant", content: [call] }, kit.store.appendEvent(session.id, { type: "tool_start", id: "toolu_dead", name: "bash", input: {} }).seq);
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  kit.store.db.query("INSERT INTO leases VALUES (?, 'crashed', ?, ?, ?, ?)").run(session.id, dead.pid, hostname(), Date.now(), Date.now() + 3_600_000);
  kit.fake.script({ reply: [{ type: "text", text: "Recovered." }] });

  const next = Session.open(kit.store.getSession(session.id)!, otherOptions(0));
  const result = await next.prompt("again");

  expect(result.status).toBe("success");
  const sent = sentMessages(kit.fake.requests.at(-1));
  expect(conversationProblems(sent)).toEqual([]);
  expect(JSON.stringify(sent[2])).toContain("Interrupted: rein stopped before this tool call finished");
});

test("an expired lease is taken over even when its pid lives (a reused pid or a stalled holder)", async () => {
  const row = kit.store.createSession({ id: "s_expired", cwd: kit.dir.path, model: "m" });
  const living = Bun.spawn(["sleep", "30"]);
  try {
    kit.store.db.query("INSERT INTO leases VALUES (?, 'stalled', ?, ?, 1000, 31000)").run(row.id, living.pid, hostname());
    expect(tryLease(other.db, row.id, "fresh", 20_000, 30_000)).toMatchObject({ holder: "stalled", pid: living.pid });
    expect(tryLease(other.db, row.id, "fresh", 31_001, 30_000)).toBeUndefined();
    expect(leaseOf(row.id)).toMatchObject({ holder: "fresh", pid: process.pid, expires_at: 61_001 });
  } finally {
    living.kill();
    await living.exited;
  }
});

test("another host's lease with an expiry beyond rein's 30 s term is cut to one term from now, then taken over", () => {
  const row = kit.store.createSession({ id: "s_far_host", cwd: kit.dir.path, model: "m" });
  const year = 365 * 24 * 3_600_000;
  kit.store.db.query("INSERT INTO leases VALUES (?, 'far', 4242, 'elsewhere.example', 1000, ?)").run(row.id, 1000 + year);
  expect(tryLease(other.db, row.id, "mine", 10_000, 30_000)).toMatchObject({ holder: "far", expires_at: 40_000 });
  expect(leaseOf(row.id)).toMatchObject({ holder: "far", expires_at: 40_000 });
  // Within the term it still counts (its holder may renew it); after, it lapses.
  expect(tryLease(other.db, row.id, "mine", 39_999, 30_000)).toMatchObject({ holder: "far" });
  expect(tryLease(other.db, row.id, "mine", 40_001, 30_000)).toBeUndefined();
  expect(leaseOf(row.id)).toMatchObject({ holder: "mine", host: hostname() });
});

test("a lease left by an earlier process that had this very pid (pid 1 in a container) is taken over at once", () => {
  const row = kit.store.createSession({ id: "s_same_pid", cwd: kit.dir.path, model: "m" });
  kit.store.db.query("INSERT INTO leases VALUES (?, 'earlier-process-1', ?, ?, ?, ?)").run(row.id, process.pid, hostname(), Date.now(), Date.now() + 3_600_000);
  expect(tryLease(other.db, row.id, "mine", Date.now(), 30_000)).toBeUndefined();
});

test("a held lease renews itself; a holder that finds it taken over hears so", async () => {
  const row = kit.store.createSession({ id: "s_renew", cwd: kit.dir.path, model: "m" });
  let lost!: () => void;
  const heard = new Promise<void>((resolve) => (lost = resolve));
  const lease = await acquireLease(kit.store.db, row.id, { waitMs: 0, ttlMs: 60, onLost: lost }, new AbortController().signal);
  if (!("release" in lease)) throw new Error("the lease should be free");
  const first = leaseOf(row.id)!.expires_at;
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => leaseOf(row.id)!.expires_at > first && (clearInterval(poll), resolve()), 5);
  });
  other.db.query("UPDATE leases SET holder = 'thief' WHERE session_id = ?").run(row.id);
  await heard;
  expect(lease.held()).toBe(false);
  lease.release();
  expect(leaseOf(row.id)?.holder).toBe("thief");
});

test("opening a session another process drives repairs only the view, never its store", async () => {
  const { session, log } = kit.create({ tools: [] });
  kit.fake.script({ hang: true, afterText: "half" });
  const first = session.prompt("one");
  await log.waitFor("text_delta");

  const opened = Session.open(kit.store.getSession(session.id)!, otherOptions(0));

  expect(opened.history().map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(kit.store.messages(session.id).map((m) => m.role)).toEqual(["user"]);
  session.abort();
  await first;
});

test("the server obeys the lease: a prompt through its hub on a session another process drives is refused (409 busy)", async () => {
  const { session, log } = kit.create();
  kit.fake.script({ hang: true, afterText: "busy" });
  const first = session.prompt("one");
  await log.waitFor("text_delta");
  const hub = new SessionHub({ store: other, optionsFor: () => ({ cwd: kit.dir.path, options: otherOptions(30) }), optionsForStored: () => otherOptions(30) });

  expect(() => hub.prompt(session.id, "from the server")).toThrow(`session ${session.id} is in use by another rein`);

  expect(kit.fake.requests).toHaveLength(1);
  expect(kit.store.messages(session.id).map((m) => m.role)).toEqual(["user"]);
  session.abort();
  await first;
  kit.fake.script({ reply: [{ type: "text", text: "Now mine." }] });
  expect(await hub.prompt(session.id, "again")).toMatchObject({ status: "success", text: "Now mine." });
});
