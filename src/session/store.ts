// The SQLite store: sessions, their messages and their event log. WAL with a busy timeout;
// migrations at open; a corrupt file is moved aside (never deleted) and a fresh one created.
import { constants, Database, type Statement } from "bun:sqlite";
import { existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentEvent, EventOf, Message, StampedEvent, Usage } from "../agent/types.ts";
import { applyMigration, MIGRATIONS } from "./migrations.ts";
import { recoverInto, recoveryText, truncation } from "./recover.ts";

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

export type Fork = {
  session: SessionRow;
  /** messages copied */
  messages: number;
  /** messages asked for (the source's count when it has fewer); more than `messages` when the cut was moved back */
  requested: number;
};

export type Health = {
  /** "ok", or what PRAGMA quick_check found */
  integrity: string;
  bytes: number;
  walBytes: number;
  sessions: number;
  trashed: number;
};

export class StoreError extends Error {}

export class Store {
  private readonly insertEvent: Statement;
  private readonly insertMessage: Statement;

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
    this.db.close();
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

  /**
   * A new session (same cwd, model, title and settings) holding the first `upToMessage` messages of
   * `id` (all when undefined) and the events up to them. A cut that would end on tool calls without
   * their results is moved back, so the fork is always a valid conversation for the provider.
   */
  forkSession(id: string, upToMessage: number | undefined, newId: string, now = Date.now()): Fork | undefined {
    return this.db.transaction((): Fork | undefined => {
      const source = this.getSession(id);
      if (!source) return undefined;
      const all = this.messages(id);
      const requested = Math.min(upToMessage ?? all.length, all.length);
      const kept = validPrefix(all.slice(0, requested));
      // Everything when the whole conversation is kept (a crash's tail is repaired in the fork as it
      // would be in the source); otherwise nothing after the last kept message, or it would be repaired in.
      const lastSeq = kept.length === all.length ? Number.MAX_SAFE_INTEGER : (kept.at(-1)?.seq ?? 0);
      const session = this.createSession({ id: newId, cwd: source.cwd, model: source.model, settings: source.settings ?? null }, now);
      if (source.title !== null) this.db.query(`UPDATE sessions SET title = ? WHERE id = ?`).run(source.title, newId);
      this.db
        .query(
          `INSERT INTO messages (session_id, idx, role, content, seq, status, created_at)
           SELECT ?1, idx, role, content, seq, status, created_at FROM messages WHERE session_id = ?2 AND idx < ?3`,
        )
        .run(newId, id, kept.length);
      this.db
        .query(
          `INSERT INTO events (session_id, seq, type, data, created_at)
           SELECT ?1, seq, type, CASE type WHEN 'session' THEN json_set(data, '$.id', ?1) ELSE data END, created_at
           FROM events WHERE session_id = ?2 AND seq <= ?3`,
        )
        .run(newId, id, lastSeq);
      return { session: { ...session, title: source.title }, messages: kept.length, requested };
    }).immediate();
  }

  /** What `rein doctor` reports: PRAGMA quick_check, the file and WAL sizes, the session counts. */
  health(): Health {
    // A page damaged past what quick_check can walk fails the check itself: that is its answer.
    const read = <T>(query: () => T): T | string => {
      try {
        return query();
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    };
    const problems = read(() => this.db.query("PRAGMA quick_check(20)").all() as { quick_check: string }[]);
    const counted = read(
      () =>
        this.db
          .query(`SELECT count(*) FILTER (WHERE deleted_at IS NULL) AS live, count(*) FILTER (WHERE deleted_at IS NOT NULL) AS trashed FROM sessions`)
          .get() as { live: number; trashed: number },
    );
    const counts = typeof counted === "string" ? { live: 0, trashed: 0 } : counted;
    return {
      integrity: typeof problems === "string" ? problems : problems.map((p) => p.quick_check).join("; ") || "ok",
      bytes: fileSize(this.path),
      walBytes: fileSize(`${this.path}-wal`),
      sessions: counts.live,
      trashed: counts.trashed,
    };
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

/** The longest prefix that does not end on an assistant turn whose tool calls have no results. */
export function validPrefix<T extends Message>(messages: readonly T[]): T[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]!.role === "assistant" && messages[end - 1]!.content.some((b) => b.type === "tool_use")) end--;
  return messages.slice(0, end);
}

function isTrashed(row: SessionRow): boolean {
  return row.deleted_at !== null && row.deleted_at !== undefined;
}

function fileSize(path: string): number {
  return path !== ":memory:" && existsSync(path) ? statSync(path).size : 0;
}

function prepare(path: string): Database {
  const cut = path === ":memory:" ? undefined : truncation(path);
  if (cut) throw new StoreError(cut);
  const db = new Database(path, { create: true, strict: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    checkVersion(db); // before anything rewrites the header of a file this rein cannot read
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    // Reads through the page cache without a system call a page: resuming a long session reads
    // its messages about 6 ms sooner (10,000 messages). Only what is read is mapped.
    db.exec("PRAGMA mmap_size = 268435456");
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A read-only connection. In WAL mode SQLite needs a writable -shm file beside the database even to
 * read, so where none can be made the file is opened as immutable (nothing else changes it there).
 */
function readOnlyDatabase(path: string): Database {
  const check = (db: Database) => {
    try {
      checkVersion(db);
      db.query("SELECT count(*) FROM sessions").get();
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  };
  try {
    return check(new Database(path, { readonly: true, strict: true }));
  } catch {
    const uri = `file:${path.split("/").map(encodeURIComponent).join("/")}?immutable=1`;
    return check(new Database(uri, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI));
  }
}

function checkVersion(db: Database): number {
  const { user_version: current } = db.query("PRAGMA user_version").get() as { user_version: number };
  if (current > MIGRATIONS.length) {
    throw new StoreError(`the session database was written by a newer rein (schema ${current}); upgrade rein`);
  }
  return current;
}

function migrate(db: Database): void {
  if (checkVersion(db) < MIGRATIONS.length) {
    // Several rein processes may open a new database at once: migrate under the write lock
    // (BEGIN IMMEDIATE) and read the version again there, so each migration runs exactly once.
    db.transaction(() => {
      for (let version = checkVersion(db) + 1; version <= MIGRATIONS.length; version++) {
        applyMigration(db, version);
        db.exec(`PRAGMA user_version = ${version}`);
      }
    }).immediate();
  }
  // Touch the schema so a damaged file fails here, at open, and not halfway through a turn.
  db.query("SELECT count(*) FROM sessions").get();
}

function isCorruption(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  const message = error instanceof Error ? error.message : "";
  return /SQLITE_(NOTADB|CORRUPT)/.test(code) || /file is not a database|malformed|file is cut short/.test(message);
}

function wrap(error: unknown, path: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/database is locked|SQLITE_BUSY/i.test(message)) {
    return new StoreError(`the session database ${path} is locked by another process (${message}); close the other rein or try again`);
  }
  if (/readonly database|unable to open database|EACCES|EROFS/i.test(message)) {
    return new StoreError(`cannot write the session database ${path} (${message}); check its permissions or set REIN_DATA_DIR`);
  }
  if (/database or disk is full|SQLITE_FULL|ENOSPC/i.test(message)) {
    return new StoreError(`the disk is full: cannot write ${path} (${message}); free some space and try again`);
  }
  return error instanceof StoreError ? error : new StoreError(`cannot open the session database ${path}: ${message}`);
}

function stamped(sessionId: string, row: { seq: number; data: string }): StampedEvent {
  return { ...(JSON.parse(row.data) as AgentEvent), session_id: sessionId, seq: row.seq } as StampedEvent;
}
