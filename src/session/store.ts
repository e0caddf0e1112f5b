// The SQLite store: sessions, their messages and their event log. WAL with a busy timeout;
// migrations at open; a corrupt file is moved aside (never deleted) and a fresh one created.
import type { Database, Statement } from "bun:sqlite";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentEvent, EventOf, Message, StampedEvent, Usage } from "../agent/types.ts";
import { recoverInto, recoveryText } from "./recover.ts";
import { forkSession, type Fork } from "./store-fork.ts";
import { databaseHealth, isCorruption, prepare, readOnlyDatabase, wrap, type Health } from "./store-open.ts";

export type SessionRow = {
  id: string;
  cwd: string;
  model: string;
  title: string | null;
  created_at: number;
  updated_at: number;
  /** JSON of the settings the session was created with, when a front end keeps them (the server) */
  settings?: string | null;
  /** when the session was moved to the trash; null (or absent) for a live session */
  deleted_at?: number | null;
  /** a subagent's session: its parent session, the task call that started it, its agent */
  parent_id?: string | null;
  parent_tool_use_id?: string | null;
  agent?: string | null;
  /** a background worker's name (send_message's `to`) and state: running, completed, failed or killed */
  task_name?: string | null;
  task_state?: string | null;
};
/** What a session's totals are made of, of one event (see `spendEvents`); a full event has these fields too. */
export type SpendEvent = {
  type: "user" | "assistant" | "result" | "compaction" | "title";
  usage?: Usage;
  /** null or absent: unknown */
  cost_usd?: number | null;
  outside_run?: boolean;
};
export type MessageStatus = "complete" | "interrupted" | "repaired";
export type StoredMessage = Message & { idx: number; seq: number; status: MessageStatus };

/** A session rm'd to the trash stays this long before `rein sessions prune` may remove it. */
export const TRASH_KEEP_MS = 30 * 24 * 60 * 60 * 1000;



export class Store {
  private readonly insertEvent: Statement;
  private readonly insertMessage: Statement;
  /** a batch of writes is open (beginBatch): one transaction, committed by commitBatch */
  private batchOpen = false;

  private constructor(
    readonly db: Database,
    readonly path: string,
  ) {
    this.insertEvent = db.prepare(
      `INSERT INTO events (session_id, seq, type, data, created_at)
       SELECT ?1, COALESCE(MAX(seq), 0) + 1, ?2, ?3, ?4 FROM events WHERE session_id = ?1
       RETURNING seq`,
    );
    this.insertMessage = db.prepare(
      `INSERT INTO messages (session_id, idx, role, content, seq, status, created_at)
       SELECT ?1, COALESCE(MAX(idx), -1) + 1, ?2, ?3, ?4, ?5, ?6 FROM messages WHERE session_id = ?1
       RETURNING idx`,
    );
  }

  /**
   * Opens (creating) the database. A damaged file is kept aside as it is, what SQLite can still read
   * of it is copied into a new one, and the warning says what was recovered and what was lost.
   */
  static open(path: string): { store: Store; warning?: string } {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    try {
      return { store: new Store(prepare(path), path) };
    } catch (error) {
      if (!isCorruption(error)) throw wrap(error, path);
      const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      let store: Store;
      try {
        for (const suffix of ["", "-wal", "-shm"]) {
          if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
        }
        store = new Store(prepare(path), path);
      } catch (cause) {
        throw wrap(cause, path); // a damaged file on a read-only disk, say: it stays where it is
      }
      const recovery = recoverInto(aside, store.db);
      const damaged = `the session database ${path} was damaged (${(error as Error).message}); the original is kept as ${aside}`;
      const warning = recovery
        ? `${damaged}, and what could be read of it is in a new database: ${recoveryText(recovery)}`
        : `${damaged}, nothing of it could be read, and a new database was created`;
      return { store, warning };
    }
  }

  /**
   * Opens an existing database for reading only, for the commands that only read (a read-only file
   * system, a folder rein cannot write): no migration, no repair, every write fails.
   */
  static openReadOnly(path: string): Store {
    try {
      return new Store(readOnlyDatabase(path), path);
    } catch (error) {
      throw wrap(error, path);
    }
  }

  close(): void {
    if (this.batchOpen) this.commitBatch();
    this.db.close();
  }

  /**
   * The writes from now until `commitBatch` go in one transaction, which takes the write lock at
   * once (other writers wait for it, as for any write): a session stores a turn's events and
   * messages with one commit. Nothing happens inside a transaction already open.
   */
  beginBatch(): void {
    if (this.db.inTransaction) return;
    this.db.exec("BEGIN IMMEDIATE");
    this.batchOpen = true;
  }

  /** Commits the open batch (none: nothing to do); one that fails is rolled back, and the error thrown. */
  commitBatch(): void {
    if (!this.batchOpen) return;
    this.batchOpen = false;
    try {
      this.db.exec("COMMIT");
    } catch (error) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  createSession(row: Pick<SessionRow, "id" | "cwd" | "model" | "settings">, now = Date.now()): SessionRow {
    const full: SessionRow = { ...row, settings: row.settings ?? null, title: null, created_at: now, updated_at: now };
    this.db
      .query(`INSERT INTO sessions (id, cwd, model, title, created_at, updated_at, settings) VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run(full.id, full.cwd, full.model, full.title, full.created_at, full.updated_at, full.settings ?? null);
    return full;
  }

  /** Marks `id` as the child session a task call of `parentId` started (agents/). */
  linkChild(id: string, link: { parentId: string; toolUseId: string; agent: string }): void {
    this.db.query(`UPDATE sessions SET parent_id = ?, parent_tool_use_id = ?, agent = ? WHERE id = ?`).run(link.parentId, link.toolUseId, link.agent, id);
  }

  /** The child sessions of a session, oldest first. */
  /** A background worker's name and state (session/team.ts). */
  setTask(id: string, fields: { name?: string | null; state: string }): void {
    if (fields.name !== undefined) this.db.query(`UPDATE sessions SET task_name = ?, task_state = ? WHERE id = ?`).run(fields.name, fields.state, id);
    else this.db.query(`UPDATE sessions SET task_state = ? WHERE id = ?`).run(fields.state, id);
  }

  childSessions(parentId: string): SessionRow[] {
    return this.db.query(`SELECT * FROM sessions WHERE parent_id = ? ORDER BY created_at, rowid`).all(parentId) as SessionRow[];
  }

  getSession(id: string): SessionRow | undefined {
    return this.db.query(`SELECT * FROM sessions WHERE id = ?`).get(id) as SessionRow | null ?? undefined;
  }

  /**
   * A session by full id or unique prefix, among the live ones (or, with "trash", the trashed ones);
   * a string when it is ambiguous or unknown.
   */
  findSession(idOrPrefix: string, among: "live" | "trash" = "live"): SessionRow | string {
    const trashed = among === "trash";
    const exact = this.getSession(idOrPrefix);
    const matches = exact
      ? [exact]
      : (this.db
          .query(`SELECT * FROM sessions WHERE id LIKE ? ESCAPE '\\' ORDER BY updated_at DESC LIMIT 10`)
          .all(`${idOrPrefix.replace(/[\\%_]/g, "\\$&")}%`) as SessionRow[]);
    const wanted = matches.filter((r) => isTrashed(r) === trashed);
    if (wanted.length === 1) return wanted[0]!;
    if (wanted.length > 1) return `"${idOrPrefix}" matches several sessions: ${wanted.slice(0, 3).map((r) => r.id).join(", ")}...`;
    const other = matches.length === 1 ? matches[0]! : undefined;
    if (other && !trashed) return `session ${other.id} is in the trash (rein sessions restore ${other.id} brings it back)`;
    if (other) return `session ${other.id} is not in the trash`;
    return trashed ? `no session "${idOrPrefix}" in the trash (see: rein sessions trash)` : `no session "${idOrPrefix}" (see: rein sessions list)`;
  }

  latestSession(cwd: string): SessionRow | undefined {
    return (
      (this.db
        .query(`SELECT * FROM sessions WHERE cwd = ? AND deleted_at IS NULL AND parent_id IS NULL ORDER BY updated_at DESC, rowid DESC LIMIT 1`)
        .get(cwd) as SessionRow | null) ?? undefined
    );
  }

  /** Live sessions, the latest first; trashed ones are in `listTrash`. */
  listSessions(options: { cwd?: string; limit?: number } = {}): SessionRow[] {
    const limit = options.limit ?? 50;
    if (options.cwd) {
      return this.db
        .query(`SELECT * FROM sessions WHERE cwd = ? AND deleted_at IS NULL AND parent_id IS NULL ORDER BY updated_at DESC LIMIT ?`)
        .all(options.cwd, limit) as SessionRow[];
    }
    return this.db.query(`SELECT * FROM sessions WHERE deleted_at IS NULL AND parent_id IS NULL ORDER BY updated_at DESC LIMIT ?`).all(limit) as SessionRow[];
  }

  /** Trashed sessions, the most recently trashed first. */
  listTrash(): SessionRow[] {
    return this.db.query(`SELECT * FROM sessions WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC, id`).all() as SessionRow[];
  }

  /** Moves a live session to the trash; false when there is no such live session. */
  trashSession(id: string, now = Date.now()): boolean {
    return this.db.query(`UPDATE sessions SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL`).run(now, id).changes > 0;
  }

  /** Brings a trashed session back; false when it is not in the trash. */
  restoreSession(id: string): boolean {
    return this.db.query(`UPDATE sessions SET deleted_at = NULL WHERE id = ? AND deleted_at IS NOT NULL`).run(id).changes > 0;
  }

  /**
   * What `pruneSessions` would remove: live sessions last updated more than `olderThanMs` ago (none
   * when it is undefined) and sessions trashed more than 30 days ago.
   */
  prunable(olderThanMs: number | undefined, now = Date.now()): SessionRow[] {
    const staleBefore = olderThanMs === undefined ? Number.MIN_SAFE_INTEGER : now - olderThanMs;
    return this.db
      .query(
        `SELECT * FROM sessions
         WHERE (deleted_at IS NULL AND updated_at < ?1) OR (deleted_at IS NOT NULL AND deleted_at < ?2)
         ORDER BY updated_at, id`,
      )
      .all(staleBefore, now - TRASH_KEEP_MS) as SessionRow[];
  }

  /** Removes (for good) what `prunable` lists, and returns it. */
  pruneSessions(olderThanMs: number | undefined, now = Date.now()): SessionRow[] {
    return this.db.transaction(() => {
      const rows = this.prunable(olderThanMs, now);
      for (const row of rows) this.deleteSession(row.id);
      return rows;
    }).immediate();
  }

  /** A new session holding the first `upToMessage` messages of `id` (all when undefined): see store-fork.ts. */
  forkSession(id: string, upToMessage: number | undefined, newId: string, now = Date.now()): Fork | undefined {
    return this.db.transaction(() => forkSession(this, id, upToMessage, newId, now)).immediate();
  }

  /** What `rein doctor` reports: PRAGMA quick_check, the file and WAL sizes, the session counts. */
  health(): Health {
    return databaseHealth(this.db, this.path);
  }

  deleteSession(id: string): boolean {
    return this.db.transaction(() => {
      this.db.query(`DELETE FROM events WHERE session_id = ?`).run(id);
      this.db.query(`DELETE FROM messages WHERE session_id = ?`).run(id);
      this.db.query(`DELETE FROM leases WHERE session_id = ?`).run(id);
      return this.db.query(`DELETE FROM sessions WHERE id = ?`).run(id).changes > 0;
    })();
  }

  updateSession(id: string, fields: { title?: string; model?: string; settings?: string }, now = Date.now()): void {
    if (fields.title !== undefined) this.db.query(`UPDATE sessions SET title = ? WHERE id = ?`).run(fields.title, id);
    if (fields.model !== undefined) this.db.query(`UPDATE sessions SET model = ? WHERE id = ?`).run(fields.model, id);
    if (fields.settings !== undefined) this.db.query(`UPDATE sessions SET settings = ? WHERE id = ?`).run(fields.settings, id);
    this.db.query(`UPDATE sessions SET updated_at = ? WHERE id = ?`).run(now, id);
  }

  /** Appends an event and returns it stamped; the seq is allocated inside the insert, so two processes never collide. */
  appendEvent(sessionId: string, event: AgentEvent, now = Date.now()): StampedEvent {
    const row = this.insertEvent.get(sessionId, event.type, JSON.stringify(event), now) as { seq: number };
    return { ...event, session_id: sessionId, seq: row.seq } as StampedEvent;
  }

  /** A session's events after `afterSeq`, at most `limit` of them (all with the default -1). */
  events(sessionId: string, afterSeq = 0, limit = -1): StampedEvent[] {
    const rows = this.db
      .query(`SELECT seq, data FROM events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`)
      .all(sessionId, afterSeq, limit) as { seq: number; data: string }[];
    return rows.map((r) => stamped(sessionId, r));
  }

  /** The sources that taint a session, and those a person cleared (taint.ts), in order. */
  taintEvents(sessionId: string): { sources: { kind: string; source: string; turn: number }[]; cleared: string[] } {
    const rows = this.db
      .query(`SELECT type, data FROM events WHERE session_id = ? AND type IN ('taint', 'taint_cleared') ORDER BY seq`)
      .all(sessionId) as { type: string; data: string }[];
    const found = { sources: [] as { kind: string; source: string; turn: number }[], cleared: [] as string[] };
    for (const row of rows) {
      const event = JSON.parse(row.data) as { kind: string; source: string; turn?: number };
      if (row.type === "taint") found.sources.push({ kind: event.kind, source: event.source, turn: event.turn ?? 0 });
      else found.cleared.push(event.source);
    }
    return found;
  }

  /**
   * The events a session's totals are made of: each model turn (`assistant`, its content left out),
   * each compaction, and the prompts (`user`, text left out) and results that tell runs apart, so a
   * run killed before its result still counts what it spent.
   */
  spendEvents(sessionId: string): SpendEvent[] {
    const rows = this.db
      .query(
        `SELECT type, json_extract(data, '$.usage') AS usage, json_extract(data, '$.cost_usd') AS cost, json_extract(data, '$.outside_run') AS outside
         FROM events WHERE session_id = ? AND type IN ('result', 'compaction', 'assistant', 'user', 'title') ORDER BY seq`,
      )
      .values(sessionId) as [SpendEvent["type"], string | null, number | null, number | null][];
    return rows.map(([type, usage, cost, outside]) => ({
      type,
      ...(usage === null ? {} : { usage: JSON.parse(usage) as Usage }),
      cost_usd: cost,
      ...(outside === null ? {} : { outside_run: outside === 1 }),
    }));
  }

  /** The latest compaction event (through a partial index: the query must name the type literally). */
  lastCompaction(sessionId: string): EventOf<"compaction"> | undefined {
    const row = this.db
      .query(`SELECT data FROM events WHERE session_id = ? AND type = 'compaction' ORDER BY seq DESC LIMIT 1`)
      .get(sessionId) as { data: string } | null;
    return row ? (JSON.parse(row.data) as EventOf<"compaction">) : undefined;
  }

  lastSeq(sessionId: string): number {
    const row = this.db.query(`SELECT MAX(seq) AS seq FROM events WHERE session_id = ?`).get(sessionId) as { seq: number | null };
    return row.seq ?? 0;
  }

  appendMessage(sessionId: string, message: Message, seq: number, status: MessageStatus = "complete", now = Date.now()): void {
    // .get of a RETURNING insert: bun:sqlite's .run took twice as long for the same insert (Bun 1.4.4).
    this.insertMessage.get(sessionId, message.role, JSON.stringify(message.content), seq, status, now);
  }

  /**
   * The messages from index `from` on, as the provider takes them (no row fields): what a resumed
   * session sends. Leaner than `messages` on a long session (no per-row objects to copy).
   */
  conversation(sessionId: string, from = 0): Message[] {
    return this.sizedConversation(sessionId, from).messages;
  }

  /** The conversation and the length of its stored text (what a size estimate needs without walking it). */
  sizedConversation(sessionId: string, from = 0): { messages: Message[]; roleLength: number; contentLength: number } {
    const rows = this.db
      .query(`SELECT role, content FROM messages WHERE session_id = ? AND idx >= ? ORDER BY idx`)
      .values(sessionId, from) as [Message["role"], string][];
    const messages: Message[] = new Array(rows.length);
    let roleLength = 0;
    let contentLength = 0;
    for (let i = 0; i < rows.length; i++) {
      const [role, content] = rows[i]!;
      messages[i] = { role, content: JSON.parse(content) };
      roleLength += role.length;
      contentLength += content.length;
    }
    return { messages, roleLength, contentLength };
  }

  /** The seq of the session's last `undo` event (0 when none). */
  lastUndo(sessionId: string): number {
    const row = this.db.query(`SELECT MAX(seq) AS seq FROM events WHERE session_id = ? AND type = 'undo'`).get(sessionId) as { seq: number | null };
    return row.seq ?? 0;
  }

  lastMessage(sessionId: string): StoredMessage | undefined {
    const row = this.db
      .query(`SELECT idx, role, content, seq, status FROM messages WHERE session_id = ? ORDER BY idx DESC LIMIT 1`)
      .get(sessionId) as { idx: number; role: Message["role"]; content: string; seq: number; status: MessageStatus } | null;
    return row ? { ...row, content: JSON.parse(row.content) } : undefined;
  }

  messages(sessionId: string): StoredMessage[] {
    const rows = this.db
      .query(`SELECT idx, role, content, seq, status FROM messages WHERE session_id = ? ORDER BY idx`)
      .all(sessionId) as { idx: number; role: Message["role"]; content: string; seq: number; status: MessageStatus }[];
    return rows.map((r) => ({ idx: r.idx, role: r.role, content: JSON.parse(r.content), seq: r.seq, status: r.status }));
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}


function isTrashed(row: SessionRow): boolean {
  return row.deleted_at !== null && row.deleted_at !== undefined;
}


function stamped(sessionId: string, row: { seq: number; data: string }): StampedEvent {
  return { ...(JSON.parse(row.data) as AgentEvent), session_id: sessionId, seq: row.seq } as StampedEvent;
}
