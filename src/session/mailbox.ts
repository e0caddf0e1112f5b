// The mailbox of a team (session/team.ts): messages to a session, kept in the session store so
// they survive a crash of the process that sent them. A recipient takes its messages in the order
// they were posted, each once: taking marks them delivered in the statement that reads them, so two
// processes taking from one mailbox never both get a message.
import type { Database } from "bun:sqlite";

export type Mail = { id: number; sender: string; body: string; created_at: number };

/** Posts `body` to `recipient` (a session id) from `sender` (a session id, a worker's name or "lead"). */
export function post(db: Database, recipient: string, sender: string, body: string, now = Date.now()): number {
  const row = db.query(`INSERT INTO mailbox (recipient, sender, body, created_at) VALUES (?, ?, ?, ?) RETURNING id`).get(recipient, sender, body, now) as { id: number };
  return row.id;
}

/** Takes every message waiting for `recipient`, oldest first; each is taken once, whoever asks. */
export function take(db: Database, recipient: string, now = Date.now()): Mail[] {
  const rows = db
    .query(`UPDATE mailbox SET delivered_at = ? WHERE recipient = ? AND delivered_at IS NULL RETURNING id, sender, body, created_at`)
    .all(now, recipient) as Mail[];
  return rows.sort((a, b) => a.id - b.id);
}

/** How many messages wait for `recipient`. */
export function waiting(db: Database, recipient: string): number {
  return (db.query(`SELECT COUNT(*) AS n FROM mailbox WHERE recipient = ? AND delivered_at IS NULL`).get(recipient) as { n: number }).n;
}
