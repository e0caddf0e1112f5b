// rein teams list | show NAME: the teams in the session store (team_create, or a lead's task list),
// their members with their state, and their shared task list. Reads only.
import { UsageError } from "../app/args.ts";
import { openStoreForReading, type Context } from "../app/context.ts";
import { err } from "../app/output.ts";
import type { Store } from "../session/store.ts";
import { allTeams, members, openBlockers, tasks, teamByName, type TeamRow } from "../session/task-list.ts";
import { workerState } from "../session/worker-rows.ts";
import { stamp, write } from "./sessions-format.ts";

const ACTIONS = "rein teams list | show NAME";

export function teamsCommand(rest: string[], ctx: Context): number {
  const [action = "list", name] = rest;
  if (action !== "list" && action !== "show") throw new UsageError(`unknown action "${action}" (${ACTIONS})`);
  const { store } = openStoreForReading(ctx, (m) => err(`rein: ${m}\n`));
  try {
    if (action === "list") return list(store, ctx.args.json);
    if (!name) throw new UsageError("rein teams show needs a team's name (see: rein teams list)");
    const team = teamByName(store.db, name);
    if (!team) {
      const known = allTeams(store.db).map((t) => t.name);
      throw new UsageError(`no team named "${name}"${known.length ? ` (teams: ${known.join(", ")})` : " (there are no teams yet)"}`);
    }
    return show(store, team, ctx.args.json);
  } finally {
    store.close();
  }
}

function summary(store: Store, team: TeamRow) {
  const list = tasks(store.db, team);
  const count = (status: string) => list.filter((t) => t.status === status).length;
  return { name: team.name, lead: team.lead_id, description: team.description, created_at: team.created_at, members: members(store.db, team).length, tasks: { total: list.length, pending: count("pending"), in_progress: count("in_progress"), completed: count("completed") } };
}

function list(store: Store, json: boolean): number {
  const teams = allTeams(store.db).map((team) => summary(store, team));
  if (json) return write(`${JSON.stringify(teams)}\n`);
  if (teams.length === 0) return write("no teams yet\n");
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const lines = teams.map((t) => `${t.name}  lead ${t.lead}  ${stamp(t.created_at)}  ${plural(t.members, "member")}  ${plural(t.tasks.total, "task")} (${t.tasks.completed} completed, ${t.tasks.in_progress} in progress, ${t.tasks.pending} pending)`);
  return write(`${lines.join("\n")}\n`);
}

function show(store: Store, team: TeamRow, json: boolean): number {
  const all = tasks(store.db, team);
  const people = members(store.db, team).map((m) => {
    const row = store.getSession(m.session_id);
    return { name: m.name, agent: m.agent, session_id: m.session_id, state: row ? (workerState(store, row) ?? "foreground") : "gone" };
  });
  if (json) return write(`${JSON.stringify({ ...summary(store, team), members: people, tasks: all })}\n`);
  const lines = [`team ${team.name} · lead ${team.lead_id} · made ${stamp(team.created_at)} UTC`, ...(team.description ? [team.description] : []), "", "members:"];
  lines.push(...(people.length ? people.map((p) => `- ${p.name} (${p.agent}, ${p.session_id}) · ${p.state}`) : ["(none)"]));
  lines.push("", "tasks:");
  lines.push(
    ...(all.length
      ? all.map((t) => {
          const blockers = openBlockers(all, t);
          return `#${t.id} [${t.status}] ${t.subject}${t.owner ? ` (${t.owner})` : ""}${blockers.length ? ` [blocked by ${blockers.map((b) => `#${b}`).join(", ")}]` : ""}`;
        })
      : ["(none)"]),
  );
  return write(`${lines.join("\n")}\n`);
}
