// What SQLite can still read of a damaged session database, copied into a fresh one. A copy of the
// damaged file (never the file itself) is padded back to the size its header gives (a truncated
// file is refused whole, while every page it still has reads fine), then each table is copied row
// by row, stepping over what cannot be read. Conversations with a hole are cut back to what comes
// before it, so each one stays valid for the provider. Says what was recovered and what was lost.
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, openSync, closeSync, readSync, rmSync, statSync, truncateSync } from "node:fs";
import { repairStoredRows } from "./repair.ts";

export type Recovery = {
  sessions: number;
  messages: number;
  events: number;
  /** what could not be recovered, each said for a person */
  lost: string[];
};

const TABLES = ["sessions", "messages", "events"] as const;

/** The column of each table that holds JSON: a row whose JSON is cut (its overflow page lost) is not kept. */
const JSON_COLUMN: Record<string, string> = { sessions: "settings", messages: "content", events: "data" };

/** Copies what `damaged` still holds into the open, freshly migrated `into`; undefined when nothing of it can be read. */
export function recoverInto(damaged: string, into: Database): Recovery | undefined {
  const copy = `${damaged}.reading`;
  try {
    for (const suffix of ["", "-wal"]) if (existsSync(damaged + suffix)) copyFileSync(damaged + suffix, copy + suffix);
    if (!padToHeader(copy)) return undefined;
    const source = new Database(copy);
    try {
      return copyAll(source, into);
    } finally {
      source.close();
    }
  } catch {
    return undefined;
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(copy + suffix, { force: true });
  }
}

/** One line: what was recovered and what was lost. */
export function recoveryText(r: Recovery): string {
  const got = `${r.sessions} session${r.sessions === 1 ? "" : "s"} (${r.messages} messages, ${r.events} events)`;
  return `recovered ${got}; ${r.lost.length > 0 ? `lost: ${r.lost.join("; ")}` : "nothing readable was lost"}`;
}

/**
 * Why the file is shorter than its header says it is (it was truncated: SQLite may open it and
 * fail only when a turn reaches a missing page); undefined when it is whole or not an SQLite file.
 */
export function truncation(path: string): string | undefined {
  const header = headerOf(path);
  if (!header || !header.sizeValid) return undefined;
  const size = statSync(path).size;
  const have = Math.floor(size / header.pageSize);
  if (size >= header.pages * header.pageSize) return undefined;
  return `the file is cut short: it holds ${have} of the ${header.pages} pages its header gives`;
}

/** Grows a truncated file back to the page count its header gives; false when it has no SQLite header. */
function padToHeader(path: string): boolean {
  const header = headerOf(path);
  if (!header) return false;
  const size = statSync(path).size;
  const wanted = Math.max(header.pages * header.pageSize, Math.ceil(size / header.pageSize) * header.pageSize);
  if (wanted > size) truncateSync(path, wanted);
  return true;
}

function headerOf(path: string): { pageSize: number; pages: number; sizeValid: boolean } | undefined {
  if (!existsSync(path)) return undefined;
  const header = Buffer.alloc(100);
  const fd = openSync(path, "r");
  try {
    if (readSync(fd, header, 0, 100, 0) < 100) return undefined;
  } finally {
    closeSync(fd);
  }
  if (header.subarray(0, 16).toString("latin1") !== "SQLite format 3\0") return undefined;
  const raw = header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  // SQLite trusts the page count only when the change counter matches the version-valid-for number
  return { pageSize: raw === 1 ? 65536 : raw, pages, sizeValid: pages > 0 && header.readUInt32BE(24) === header.readUInt32BE(92) };
}

function copyAll(source: Database, into: Database): Recovery {
  const lost: string[] = [];
  into.exec("PRAGMA foreign_keys = OFF");
  try {
    into.transaction(() => {
      for (const table of TABLES) {
        const { unreadable } = copyTable(source, into, table);
        if (unreadable) lost.push(`${table} rows that could not be read`);
      }
      lost.push(...restoreSessionRows(into), ...cutAtHoles(into));
      repairStoredRows(into);
    })();
  } finally {
    into.exec("PRAGMA foreign_keys = ON");
  }
  const count = (table: string) => (into.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { sessions: count("sessions"), messages: count("messages"), events: count("events"), lost };
}

/** Copies the columns both schemas have, row by row; a read that fails is stepped over. */
function copyTable(source: Database, into: Database, table: string): { unreadable: boolean } {
  const columns = sharedColumns(source, into, table);
  if (columns.length === 0) return { unreadable: true };
  const list = columns.join(", ");
  const insert = into.prepare(`INSERT OR IGNORE INTO ${table} (${list}) VALUES (${columns.map(() => "?").join(", ")})`);
  const read = source.prepare(`SELECT rowid AS rowid_, ${list} FROM ${table} WHERE rowid > ? ORDER BY rowid`);
  let after = Number.MIN_SAFE_INTEGER;
  let unreadable = false;
  for (let attempts = 0; attempts < 10_000; attempts++) {
    try {
      for (const row of read.iterate(after) as Iterable<Record<string, unknown>>) {
        after = row.rowid_ as number;
        if (!whole(row[JSON_COLUMN[table] ?? ""])) {
          unreadable = true;
          continue;
        }
        insert.run(...(columns.map((c) => row[c] ?? null) as never[]));
      }
      return { unreadable };
    } catch {
      unreadable = true;
      const next = nextReadable(source, table, after);
      if (next === undefined) return { unreadable };
      after = next - 1;
    }
  }
  return { unreadable: true };
}

function whole(json: unknown): boolean {
  if (json === undefined || json === null) return true;
  try {
    return typeof json === "string" && typeof JSON.parse(json) === "object";
  } catch {
    return false;
  }
}

/** The rowid of a row past `after` that can be read, looking further each time; undefined when there is none. */
function nextReadable(source: Database, table: string, after: number): number | undefined {
  const probe = source.prepare(`SELECT rowid AS id FROM ${table} WHERE rowid >= ? ORDER BY rowid LIMIT 1`);
  const start = Math.max(after, 0);
  for (let step = 1; step < 2 ** 52; step *= 2) {
    try {
      const row = probe.get(start + step) as { id: number } | null;
      return row ? row.id : undefined;
    } catch {
      // that part of the table is unreadable too: look further
    }
  }
  return undefined;
}

function sharedColumns(source: Database, into: Database, table: string): string[] {
  const names = (db: Database) => {
    try {
      return (db.query(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name);
    } catch {
      return [];
    }
  };
  const theirs = new Set(names(source));
  return names(into).filter((name) => theirs.has(name));
}

/** Sessions whose row was lost but whose messages were read come back from their `session` event. */
function restoreSessionRows(db: Database): string[] {
  const orphans = db
    .query(`SELECT DISTINCT session_id AS id FROM (SELECT session_id FROM messages UNION SELECT session_id FROM events) WHERE session_id NOT IN (SELECT id FROM sessions)`)
    .all() as { id: string }[];
  const gone: string[] = [];
  for (const { id } of orphans) {
    const start = db.query(`SELECT data, created_at FROM events WHERE session_id = ? AND type = 'session' ORDER BY seq LIMIT 1`).get(id) as { data: string; created_at: number } | null;
    const info = start ? (JSON.parse(start.data) as { cwd?: string; model?: string }) : {};
    if (!start || !info.cwd || !info.model) {
      gone.push(id);
      db.query(`DELETE FROM messages WHERE session_id = ?`).run(id);
      db.query(`DELETE FROM events WHERE session_id = ?`).run(id);
      continue;
    }
    const last = db.query(`SELECT max(created_at) AS at FROM events WHERE session_id = ?`).get(id) as { at: number };
    db.query(`INSERT INTO sessions (id, cwd, model, title, created_at, updated_at) VALUES (?, ?, ?, '(recovered)', ?, ?)`).run(id, info.cwd, info.model, start.created_at, last.at);
  }
  return gone.length > 0 ? [`the messages of ${gone.length} session${gone.length === 1 ? "" : "s"} whose details were lost (${gone.slice(0, 3).join(", ")})`] : [];
}

/** Each conversation is cut back to before its first missing message, so it stays a valid one. */
function cutAtHoles(db: Database): string[] {
  const cut: string[] = [];
  let dropped = 0;
  for (const { id } of db.query(`SELECT id FROM sessions`).all() as { id: string }[]) {
    const indexes = (db.query(`SELECT idx FROM messages WHERE session_id = ? ORDER BY idx`).values(id) as [number][]).map(([i]) => i);
    const hole = indexes.findIndex((idx, i) => idx !== i);
    if (hole === -1) continue;
    dropped += db.query(`DELETE FROM messages WHERE session_id = ? AND idx >= ?`).run(id, hole).changes;
    cut.push(id);
  }
  if (cut.length === 0) return [];
  return [`${dropped} message${dropped === 1 ? "" : "s"} after a hole in ${cut.length} conversation${cut.length === 1 ? "" : "s"} (${cut.slice(0, 3).join(", ")}), cut back to a whole conversation`];
}
