// Opening the session database: the pragmas, the schema version check and the migrations under the
// write lock, a read-only connection where none can be written, the errors said in one line, and
// what `rein doctor` reports of the file.
import { constants, Database } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { applyMigration, MIGRATIONS } from "./migrations.ts";
import { truncation } from "./recover.ts";

export class StoreError extends Error {}

export type Health = {
  /** "ok", or what PRAGMA quick_check found */
  integrity: string;
  bytes: number;
  walBytes: number;
  sessions: number;
  trashed: number;
};

/** PRAGMA quick_check, the file and WAL sizes, the session counts. */
export function databaseHealth(db: Database, path: string): Health {
  // A page damaged past what quick_check can walk fails the check itself: that is its answer.
  const read = <T>(query: () => T): T | string => {
    try {
      return query();
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  const problems = read(() => db.query("PRAGMA quick_check(20)").all() as { quick_check: string }[]);
  const counted = read(
    () =>
      db
        .query(`SELECT count(*) FILTER (WHERE deleted_at IS NULL) AS live, count(*) FILTER (WHERE deleted_at IS NOT NULL) AS trashed FROM sessions`)
        .get() as { live: number; trashed: number },
  );
  const counts = typeof counted === "string" ? { live: 0, trashed: 0 } : counted;
  return {
    integrity: typeof problems === "string" ? problems : problems.map((p) => p.quick_check).join("; ") || "ok",
    bytes: fileSize(path),
    walBytes: fileSize(`${path}-wal`),
    sessions: counts.live,
    trashed: counts.trashed,
  };
}

function fileSize(path: string): number {
  return path !== ":memory:" && existsSync(path) ? statSync(path).size : 0;
}

export function prepare(path: string): Database {
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
export function readOnlyDatabase(path: string): Database {
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
  } catch (error) {
    // A newer schema is the answer: the immutable view, which ignores the WAL, would only hide it.
    if (error instanceof StoreError) throw error;
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

export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  const message = error instanceof Error ? error.message : "";
  return /SQLITE_(NOTADB|CORRUPT)/.test(code) || /file is not a database|malformed|file is cut short/.test(message);
}

export function wrap(error: unknown, path: string): Error {
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
