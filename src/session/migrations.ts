// Numbered schema migrations, run at open; PRAGMA user_version records the last one applied. A
// migration is SQL, or a function for what SQL alone cannot do.
import type { Database } from "bun:sqlite";
import { repairStoredRows } from "./repair.ts";

export const MIGRATIONS: readonly (string | ((db: Database) => void))[] = [
  // 1: sessions, the conversation as sent to the provider, and the event log
  `CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     cwd TEXT NOT NULL,
     model TEXT NOT NULL,
     title TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX sessions_by_cwd ON sessions (cwd, updated_at);
   CREATE TABLE messages (
     session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
     idx INTEGER NOT NULL,
     role TEXT NOT NULL,
     content TEXT NOT NULL,
     seq INTEGER NOT NULL,
     status TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     PRIMARY KEY (session_id, idx)
   );
   CREATE TABLE events (
     session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     type TEXT NOT NULL,
     data TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     PRIMARY KEY (session_id, seq)
   );`,
  // 2: what a session was created with beyond cwd and model (the server's permission mode and rules), as JSON
  `ALTER TABLE sessions ADD COLUMN settings TEXT;`,
  // 3: a session moved to the trash (rein sessions rm) keeps its rows; deleted_at says since when
  `ALTER TABLE sessions ADD COLUMN deleted_at INTEGER;
   CREATE INDEX sessions_by_deleted_at ON sessions (deleted_at);`,
  // 4: the latest compaction of a session, found at open without reading its whole event log
  //    (partial: only compaction events are indexed, so appending the others costs nothing more)
  `CREATE INDEX events_compactions ON events (session_id, seq) WHERE type = 'compaction';`,
  // 5: the lease of a session driven by a process now (see lease.ts): one row per leased session
  `CREATE TABLE leases (
     session_id TEXT PRIMARY KEY,
     holder TEXT NOT NULL,
     pid INTEGER NOT NULL,
     host TEXT NOT NULL,
     acquired_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   );`,
  // 6: sessions stored before rein knew what the provider refuses (an empty or whitespace-only text
  //    block, a corrupt image) are repaired once, so they can be continued
  (db) => void repairStoredRows(db),
  // 7: a subagent's session names its parent session, the task call that started it and its agent
  `ALTER TABLE sessions ADD COLUMN parent_id TEXT;
   ALTER TABLE sessions ADD COLUMN parent_tool_use_id TEXT;
   ALTER TABLE sessions ADD COLUMN agent TEXT;
   CREATE INDEX sessions_by_parent ON sessions (parent_id) WHERE parent_id IS NOT NULL;`,
  // 8: teams (session/team.ts): a background worker's name and state on its session, and the mailbox
  //    (session/mailbox.ts): messages to a session, in order, each taken once (delivered_at set)
  `ALTER TABLE sessions ADD COLUMN task_name TEXT;
   ALTER TABLE sessions ADD COLUMN task_state TEXT;
   CREATE TABLE mailbox (
     id INTEGER PRIMARY KEY,
     recipient TEXT NOT NULL,
     sender TEXT NOT NULL,
     body TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     delivered_at INTEGER
   );
   CREATE INDEX mailbox_pending ON mailbox (recipient, id) WHERE delivered_at IS NULL;`,
  // 9: migration 6 again, now that it finds whitespace-only text that begins with a line break or a
  //    tab (stored JSON escapes them: its search looked for the raw characters) and blank tool results
  (db) => void repairStoredRows(db),
  // 10: teams and their shared task list (session/task-list.ts): a lead leads at most one team, its
  //     background workers are the members, tasks are numbered per team
  `CREATE TABLE teams (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL UNIQUE,
     lead_id TEXT NOT NULL UNIQUE,
     description TEXT NOT NULL DEFAULT '',
     created_at INTEGER NOT NULL
   );
   CREATE TABLE team_members (
     team_id INTEGER NOT NULL,
     name TEXT NOT NULL,
     session_id TEXT NOT NULL,
     agent TEXT NOT NULL,
     joined_at INTEGER NOT NULL,
     PRIMARY KEY (team_id, name)
   );
   CREATE INDEX team_members_by_session ON team_members (session_id);
   CREATE TABLE team_tasks (
     team_id INTEGER NOT NULL,
     id INTEGER NOT NULL,
     subject TEXT NOT NULL,
     description TEXT NOT NULL,
     active_form TEXT,
     status TEXT NOT NULL,
     owner TEXT,
     blocks TEXT NOT NULL DEFAULT '[]',
     blocked_by TEXT NOT NULL DEFAULT '[]',
     created_by TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (team_id, id)
   );`,
];

/** Applies migration `version` (1-based) to `db`; the caller records it in user_version. */
export function applyMigration(db: Database, version: number): void {
  const migration = MIGRATIONS[version - 1]!;
  if (typeof migration === "string") db.exec(migration);
  else migration(db);
}
