// A damaged session database through Store.open on real files: one truncated by 1% (which SQLite
// refuses whole) comes back nearly whole, one with a page overwritten in the middle comes back but
// for that page, the original is kept byte for byte, the warning says what was recovered and what was
// lost, and every recovered conversation is one the provider accepts and can be continued.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { openSync, closeSync, readdirSync, readFileSync, statSync, truncateSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../../src/agent/types.ts";
import { Session } from "../../../src/session/session.ts";
import { recoverInto, recoveryText } from "../../../src/session/recover.ts";
import { Store } from "../../../src/session/store.ts";
import { validPrefix } from "../../../src/session/store-fork.ts";
import { conversationProblems, type Kit, useKit } from "../../support/session-kit.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const useShared = useKit();
let kit: Kit;
let dir: TempDir;
let path: string;
beforeEach(() => {
  kit = useShared();
  dir = tempDir("rein-recover-");
  path = join(dir.path, "rein.db");
});
afterEach(() => dir.remove());

const SESSIONS = 30;
const EXCHANGES = 5;

/** A database of 30 sessions, each five exchanges of a tool call and its result, checkpointed into the main file. */
function fill(): void {
  const { store } = Store.open(path);
  for (let s = 0; s < SESSIONS; s++) {
    const id = `s_${String(s).padStart(2, "0")}`;
    store.createSession({ id, cwd: dir.path, model: "claude-test-1" });
    store.appendEvent(id, { type: "session", id, cwd: dir.path, model: "claude-test-1", version: "test" });
    for (let i = 0; i < EXCHANGES; i++) {
      const seq = store.appendEvent(id, { type: "user", text: `question ${i}` }).seq;
      const conversation: Message[] = [
        { role: "user", content: [{ type: "text", text: `question ${i} ${"q".repeat(200)}` }] },
        { role: "assistant", content: [{ type: "tool_use", id: `toolu_${s}_${i}`, name: "read", input: { path: "a.txt" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${s}_${i}`, content: "r".repeat(300) }] },
        { role: "assistant", content: [{ type: "text", text: `answer ${i}` }] },
      ];
      for (const message of conversation) store.appendMessage(id, message, seq);
    }
  }
  store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  store.close();
}

function asideFile(): string {
  const aside = readdirSync(dir.path).filter((name) => /^rein\.db\.corrupt-[^-]+.*\d{3}Z$/.test(name));
  expect(aside).toHaveLength(1);
  return join(dir.path, aside[0]!);
}

/** Every recovered conversation is valid (a trailing call without its result is what opening repairs). */
function expectValid(store: Store): void {
  for (const row of store.listSessions({ limit: 100 })) {
    const kept = validPrefix(store.conversation(row.id));
    if (kept.length > 0) expect(conversationProblems(kept)).toEqual([]);
  }
}

test("a file truncated by 1%: what SQLite can read is recovered, the rest named, the original kept, and a session goes on", async () => {
  fill();
  truncateSync(path, Math.floor(statSync(path).size * 0.99));
  const damaged = readFileSync(path);

  const { store, warning } = Store.open(path);
  try {
    const aside = asideFile();
    expect(readFileSync(aside).equals(damaged)).toBe(true);
    expect(warning).toMatch(/^the session database \S+ was damaged \(the file is cut short: it holds (\d+) of the \d+ pages its header gives\); /);
    expect(warning).toContain(`; the original is kept as ${aside}, and what could be read of it is in a new database: recovered 30 sessions (`);
    const sessions = store.listSessions({ limit: 100 });
    expect(sessions).toHaveLength(SESSIONS);
    const messages = sessions.reduce((n, row) => n + store.messages(row.id).length, 0);
    // one page of 4 KiB lost out of about 150: at most a handful of messages, and the warning counts them
    expect(messages).toBeGreaterThan(SESSIONS * EXCHANGES * 4 - 20);
    expect(warning).toContain(`(${messages} messages, `);
    expectValid(store);

    const first = store.getSession("s_00")!;
    kit.fake.script({ reply: [{ type: "text", text: "Still here." }] });
    const session = Session.open(first, { ...kit.options(), store });
    expect((await session.prompt("go on")).status).toBe("success");
  } finally {
    store.close();
  }
});

test("a page overwritten in the middle: the rows around it are recovered, what it held is named, the conversations cut back", () => {
  fill();
  const pageSize = readFileSync(path).readUInt16BE(16);
  const pages = statSync(path).size / pageSize;
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, Math.floor(pages / 2) * pageSize);
  closeSync(fd);
  const fresh = Store.open(join(dir.path, "fresh.db")).store;
  try {
    const recovery = recoverInto(path, fresh.db)!;

    expect(recovery.lost.length).toBeGreaterThan(0);
    expect(recoveryText(recovery)).toMatch(/^recovered \d+ sessions \(\d+ messages, \d+ events\); lost: .*(could not be read|cut back)/);
    expect(recovery.sessions).toBeGreaterThan(SESSIONS / 2);
    expect(recovery.messages).toBeGreaterThan(SESSIONS * EXCHANGES * 2);
    expect(recovery.messages).toBeLessThan(SESSIONS * EXCHANGES * 4);
    expectValid(fresh);
    // the damaged file itself was only read
    expect(readFileSync(path).subarray(Math.floor(pages / 2) * pageSize, Math.floor(pages / 2) * pageSize + 4)).toEqual(Buffer.alloc(4, 0xa5));
  } finally {
    fresh.close();
  }
});

test("a file that is no database at all: nothing recovered, said so, the original kept", () => {
  const garbage = Buffer.alloc(8192, 0x5a);
  Bun.write(path, garbage);
  const { store, warning } = Store.open(path);
  store.close();
  expect(readFileSync(asideFile()).equals(garbage)).toBe(true);
  expect(warning).toEndWith("nothing of it could be read, and a new database was created");
});

test("health (rein doctor) on a file with a damaged page reports the damage instead of failing", () => {
  fill();
  const pageSize = readFileSync(path).readUInt16BE(16);
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, Math.floor(statSync(path).size / pageSize / 2) * pageSize);
  closeSync(fd);
  const { store } = Store.open(path);
  try {
    expect(store.health().integrity).toBe("database disk image is malformed");
  } finally {
    store.close();
  }
});
