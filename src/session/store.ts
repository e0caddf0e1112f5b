// The SQLite store: sessions, their messages and their event log. WAL with a busy timeout;
// migrations at open; a corrupt file is moved aside (never deleted) and a fresh one created.
import { Database, type Statement } from "bun:sqlite";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentEvent, Message, StampedEvent } from "../agent/types.ts";
import { MIGRATIONS } from "./migrations.ts";

export type SessionRow = {
  id: string;
  cwd: string;
  model: string;
  title: string | null;
  created_at: number;
  updated_at: number;
  /** JSON of the settings the session was created with, when a front end keeps them (the server) */
  settings?: string | null;
};
export type MessageStatus = "complete" | "interrupted" | "repaired";
export type StoredMessage = Message & { idx: number; seq: number; status: MessageStatus };

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
       SELECT ?1, COALESCE(MAX(idx), -1) + 1, ?2, ?3, ?4, ?5, ?6 FROM messages WHERE session_id = ?1`,
    );
  }

  /** Opens (creating) the database. A file that is not a usable database is kept aside with a warning. */
  static open(path: string): { store: Store; warning?: string } {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    try {
      return { store: new Store(prepare(path), path) };
    } catch (error) {
      if (!isCorruption(error)) throw wrap(error, path);
      const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      for (const suffix of ["", "-wal", "-shm"]) {
        if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
      }
      const warning =
        `the session database ${path} was corrupt (${(error as Error).message}); it was moved to ${aside} ` +
        `and a new one was created. Old sessions may be recoverable from it with the sqlite3 ".recover" command.`;
      return { store: new Store(prepare(path), path), warning };
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

  getSession(id: string): SessionRow | undefined {
    return this.db.query(`SELECT * FROM sessions WHERE id = ?`).get(id) as SessionRow | null ?? undefined;
  }

  /** A session by full id or unique prefix; a string when it is ambiguous or unknown. */
  findSession(idOrPrefix: string): SessionRow | string {
    const exact = this.getSession(idOrPrefix);
    if (exact) return exact;
    const rows = this.db
      .query(`SELECT * FROM sessions WHERE id LIKE ? ESCAPE '\\' ORDER BY updated_at DESC LIMIT 3`)
      .all(`${idOrPrefix.replace(/[\\%_]/g, "\\$&")}%`) as SessionRow[];
    if (rows.length === 1) return rows[0]!;
    if (rows.length === 0) return `no session "${idOrPrefix}" (see: rein sessions list)`;
    return `"${idOrPrefix}" matches several sessions: ${rows.map((r) => r.id).join(", ")}...`;
  }

  latestSession(cwd: string): SessionRow | undefined {
    return (this.db.query(`SELECT * FROM sessions WHERE cwd = ? ORDER BY updated_at DESC, rowid DESC LIMIT 1`).get(cwd) as SessionRow | null) ?? undefined;
  }

  listSessions(options: { cwd?: string; limit?: number } = {}): SessionRow[] {
    const limit = options.limit ?? 50;
    if (options.cwd) {
      return this.db.query(`SELECT * FROM sessions WHERE cwd = ? ORDER BY updated_at DESC LIMIT ?`).all(options.cwd, limit) as SessionRow[];
    }
    return this.db.query(`SELECT * FROM sessions ORDER BY updated_at DESC LIMIT ?`).all(limit) as SessionRow[];
  }

  deleteSession(id: string): boolean {
    return this.db.transaction(() => {
      this.db.query(`DELETE FROM events WHERE session_id = ?`).run(id);
      this.db.query(`DELETE FROM messages WHERE session_id = ?`).run(id);
      return this.db.query(`DELETE FROM sessions WHERE id = ?`).run(id).changes > 0;
    })();
  }

  updateSession(id: string, fields: { title?: string; model?: string }, now = Date.now()): void {
    if (fields.title !== undefined) this.db.query(`UPDATE sessions SET title = ? WHERE id = ?`).run(fields.title, id);
    if (fields.model !== undefined) this.db.query(`UPDATE sessions SET model = ? WHERE id = ?`).run(fields.model, id);
    this.db.query(`UPDATE sessions SET updated_at = ? WHERE id = ?`).run(now, id);
  }

  /** Appends an event and returns it stamped; the seq is allocated inside the insert, so two processes never collide. */
  appendEvent(sessionId: string, event: AgentEvent, now = Date.now()): StampedEvent {
    const row = this.insertEvent.get(sessionId, event.type, JSON.stringify(event), now) as { seq: number };
    return { ...event, session_id: sessionId, seq: row.seq } as StampedEvent;
  }

  events(sessionId: string, afterSeq = 0): StampedEvent[] {
    const rows = this.db
      .query(`SELECT seq, data FROM events WHERE session_id = ? AND seq > ? ORDER BY seq`)
      .all(sessionId, afterSeq) as { seq: number; data: string }[];
    return rows.map((r) => ({ ...(JSON.parse(r.data) as AgentEvent), session_id: sessionId, seq: r.seq }) as StampedEvent);
  }

  lastSeq(sessionId: string): number {
    const row = this.db.query(`SELECT MAX(seq) AS seq FROM events WHERE session_id = ?`).get(sessionId) as { seq: number | null };
    return row.seq ?? 0;
  }

  appendMessage(sessionId: string, message: Message, seq: number, status: MessageStatus = "complete", now = Date.now()): void {
    this.insertMessage.run(sessionId, message.role, JSON.stringify(message.content), seq, status, now);
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

function prepare(path: string): Database {
  const db = new Database(path, { create: true, strict: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    checkVersion(db); // before anything rewrites the header of a file this rein cannot read
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
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
        db.exec(MIGRATIONS[version - 1]!);
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
  return /SQLITE_(NOTADB|CORRUPT)/.test(code) || /file is not a database|malformed/.test(message);
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
