// A team and its shared task list, kept in the session store (one SQLite file, as everything else):
// a lead session leads at most one team; its background workers are the team's members; the task
// list is the team's (Claude Code's TaskCreate/TaskUpdate/TaskList: numbered tasks with a subject,
// a status, an owner and what blocks them). A lead that uses the task list without team_create has
// a team of its own made for it, named after its session. Plain functions over the database, as
// mailbox.ts; the tools (agents/team-tools.ts) and `rein teams` read and write through them.
import type { Database } from "bun:sqlite";

export type TeamRow = { id: number; name: string; lead_id: string; description: string; created_at: number };
export type MemberRow = { team_id: number; name: string; session_id: string; agent: string; joined_at: number };
export type TaskStatus = "pending" | "in_progress" | "completed";
export const TASK_STATUSES: readonly TaskStatus[] = ["pending", "in_progress", "completed"];

export type TeamTask = {
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  status: TaskStatus;
  owner?: string;
  blocks: string[];
  blockedBy: string[];
  createdBy: string;
  createdAt: number;
  updatedAt: number;
};

type TaskRow = {
  id: number;
  subject: string;
  description: string;
  active_form: string | null;
  status: TaskStatus;
  owner: string | null;
  blocks: string;
  blocked_by: string;
  created_by: string;
  created_at: number;
  updated_at: number;
};

/** A team's name: what `rein teams show` and the hooks' `team_name` say; a short word. */
export function teamNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/.test(name)) return `the team name "${name}" is not usable: use 1-40 letters, digits, "_", "-" or "." (starting with a letter or digit)`;
  return undefined;
}

export function teamOfLead(db: Database, leadId: string): TeamRow | undefined {
  return (db.query(`SELECT * FROM teams WHERE lead_id = ?`).get(leadId) as TeamRow | null) ?? undefined;
}

export function teamByName(db: Database, name: string): TeamRow | undefined {
  return (db.query(`SELECT * FROM teams WHERE name = ?`).get(name) as TeamRow | null) ?? undefined;
}

export function allTeams(db: Database): TeamRow[] {
  return db.query(`SELECT * FROM teams ORDER BY created_at, id`).all() as TeamRow[];
}

/**
 * Makes the team `name` led by `leadId`; a lead whose task list was in use without a team keeps its
 * tasks under the new name. Returns the team, or one line saying why not.
 */
export function createTeam(db: Database, leadId: string, name: string, description: string, now = Date.now()): TeamRow | string {
  const problem = teamNameProblem(name);
  if (problem) return problem;
  const taken = teamByName(db, name);
  if (taken && taken.lead_id !== leadId) return `a team named "${name}" already exists (led by session ${taken.lead_id}); choose another name`;
  const own = teamOfLead(db, leadId);
  if (own && own.name !== implicitName(leadId)) return `this session already leads the team "${own.name}"; team_delete it first, or keep using it`;
  if (own) {
    db.query(`UPDATE teams SET name = ?, description = ? WHERE id = ?`).run(name, description, own.id);
    return { ...own, name, description };
  }
  return db.query(`INSERT INTO teams (name, lead_id, description, created_at) VALUES (?, ?, ?, ?) RETURNING *`).get(name, leadId, description, now) as TeamRow;
}

/** The lead's team, made (named after the lead's session) when it has none: the task list always has a team. */
export function ensureTeam(db: Database, leadId: string, now = Date.now()): TeamRow {
  return teamOfLead(db, leadId) ?? (db.query(`INSERT INTO teams (name, lead_id, description, created_at) VALUES (?, ?, '', ?) RETURNING *`).get(implicitName(leadId), leadId, now) as TeamRow);
}

/** The name of the team made for a lead that used the task list without team_create: its session id. */
export function implicitName(leadId: string): string {
  return leadId;
}

/** Removes the team, its members and its task list. */
export function deleteTeam(db: Database, team: TeamRow): void {
  db.transaction(() => {
    db.query(`DELETE FROM team_tasks WHERE team_id = ?`).run(team.id);
    db.query(`DELETE FROM team_members WHERE team_id = ?`).run(team.id);
    db.query(`DELETE FROM teams WHERE id = ?`).run(team.id);
  })();
}

export function addMember(db: Database, team: TeamRow, member: { name: string; sessionId: string; agent: string }, now = Date.now()): void {
  db.query(`INSERT OR REPLACE INTO team_members (team_id, name, session_id, agent, joined_at) VALUES (?, ?, ?, ?, ?)`).run(team.id, member.name, member.sessionId, member.agent, now);
}

export function members(db: Database, team: TeamRow): MemberRow[] {
  return db.query(`SELECT * FROM team_members WHERE team_id = ? ORDER BY joined_at, name`).all(team.id) as MemberRow[];
}

/** The team a member session belongs to, and its name there. */
export function membership(db: Database, sessionId: string): { team: TeamRow; name: string } | undefined {
  const row = db.query(`SELECT t.*, m.name AS member FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.session_id = ?`).get(sessionId) as (TeamRow & { member: string }) | null;
  if (!row) return undefined;
  const { member, ...team } = row;
  return { team, name: member };
}

export function addTask(db: Database, team: TeamRow, task: { subject: string; description: string; activeForm?: string; createdBy: string }, now = Date.now()): TeamTask {
  const row = db
    .query(
      `INSERT INTO team_tasks (team_id, id, subject, description, active_form, status, created_by, created_at, updated_at)
       VALUES (?1, (SELECT COALESCE(MAX(id), 0) + 1 FROM team_tasks WHERE team_id = ?1), ?2, ?3, ?4, 'pending', ?5, ?6, ?6) RETURNING *`,
    )
    .get(team.id, task.subject, task.description, task.activeForm ?? null, task.createdBy, now) as TaskRow;
  return fromRow(row);
}

export function getTask(db: Database, team: TeamRow, id: string): TeamTask | undefined {
  const row = db.query(`SELECT * FROM team_tasks WHERE team_id = ? AND id = ?`).get(team.id, Number(id)) as TaskRow | null;
  return row ? fromRow(row) : undefined;
}

export function tasks(db: Database, team: TeamRow): TeamTask[] {
  return (db.query(`SELECT * FROM team_tasks WHERE team_id = ? ORDER BY id`).all(team.id) as TaskRow[]).map(fromRow);
}

export function removeTask(db: Database, team: TeamRow, id: string): boolean {
  const removed = db.query(`DELETE FROM team_tasks WHERE team_id = ? AND id = ?`).run(team.id, Number(id)).changes > 0;
  // What the removed task blocked is free of it.
  for (const task of tasks(db, team)) {
    if (task.blocks.includes(id) || task.blockedBy.includes(id)) saveTask(db, team, { ...task, blocks: task.blocks.filter((t) => t !== id), blockedBy: task.blockedBy.filter((t) => t !== id) });
  }
  return removed;
}

/** Writes a task's changed fields (its subject, description, status, owner, links). */
export function saveTask(db: Database, team: TeamRow, task: TeamTask, now = Date.now()): void {
  db.query(`UPDATE team_tasks SET subject = ?, description = ?, active_form = ?, status = ?, owner = ?, blocks = ?, blocked_by = ?, updated_at = ? WHERE team_id = ? AND id = ?`).run(
    task.subject,
    task.description,
    task.activeForm ?? null,
    task.status,
    task.owner ?? null,
    JSON.stringify(task.blocks),
    JSON.stringify(task.blockedBy),
    now,
    team.id,
    Number(task.id),
  );
}

/** `blocker` blocks `blocked`: both tasks say so. */
export function link(db: Database, team: TeamRow, blocker: TeamTask, blocked: TeamTask): void {
  if (!blocker.blocks.includes(blocked.id)) saveTask(db, team, { ...blocker, blocks: [...blocker.blocks, blocked.id] });
  const fresh = getTask(db, team, blocked.id)!;
  if (!fresh.blockedBy.includes(blocker.id)) saveTask(db, team, { ...fresh, blockedBy: [...fresh.blockedBy, blocker.id] });
}

/** The tasks blocking `task` that are not completed yet. */
export function openBlockers(all: readonly TeamTask[], task: TeamTask): string[] {
  const done = new Set(all.filter((t) => t.status === "completed").map((t) => t.id));
  return task.blockedBy.filter((id) => !done.has(id));
}

function fromRow(row: TaskRow): TeamTask {
  return {
    id: String(row.id),
    subject: row.subject,
    description: row.description,
    ...(row.active_form ? { activeForm: row.active_form } : {}),
    status: row.status,
    ...(row.owner ? { owner: row.owner } : {}),
    blocks: JSON.parse(row.blocks) as string[],
    blockedBy: JSON.parse(row.blocked_by) as string[],
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
