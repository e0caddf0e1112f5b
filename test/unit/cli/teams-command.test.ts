// `rein teams` from source in a real process, over a real store holding a team made through the
// task list's own functions: the listing's counts, a team's members with their state (a member whose
// session is gone says so) and its tasks with owners and open blockers, the JSON, and the usage lines.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { addMember, addTask, createTeam, link, saveTask } from "../../../src/session/task-list.ts";
import { Store } from "../../../src/session/store.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const MAIN = resolve(import.meta.dir, "../../../src/main.ts");
let dir: TempDir;
let env: Record<string, string>;
beforeAll(() => {
  dir = tempDir("rein-teams-");
  mkdirSync(join(dir.path, "home"), { recursive: true });
  env = { PATH: process.env.PATH ?? "", HOME: join(dir.path, "home"), REIN_CONFIG_DIR: join(dir.path, "config"), REIN_DATA_DIR: join(dir.path, "data") };
  const { store } = Store.open(join(dir.path, "data", "rein.db"));
  store.createSession({ id: "s_lead", cwd: dir.path, model: "m", settings: null });
  store.createSession({ id: "s_worker", cwd: dir.path, model: "m", settings: null });
  const team = createTeam(store.db, "s_lead", "release", "Ship version 2", Date.UTC(2026, 11, 1, 9, 30));
  if (typeof team === "string") throw new Error(team);
  addMember(store.db, team, { name: "tester", sessionId: "s_worker", agent: "general" });
  addMember(store.db, team, { name: "ghost", sessionId: "s_gone", agent: "explore" });
  const build = addTask(store.db, team, { subject: "build the package", description: "", createdBy: "s_lead" });
  const publish = addTask(store.db, team, { subject: "publish it", description: "", createdBy: "s_lead" });
  addTask(store.db, team, { subject: "write the notes", description: "", createdBy: "s_lead" });
  link(store.db, team, build, publish);
  saveTask(store.db, team, { ...build, status: "in_progress", owner: "tester" });
  store.close();
});
afterAll(() => dir.remove());

async function teams(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, MAIN, "teams", ...argv], { cwd: dir.path, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

test("list: each team with its lead, when it was made, its members and its tasks by state", async () => {
  const r = await teams();
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("release  lead s_lead  2026-12-01 09:30  2 members  3 tasks (0 completed, 1 in progress, 2 pending)\n");
  const json = JSON.parse((await teams("list", "--json")).stdout);
  expect(json).toEqual([{ name: "release", lead: "s_lead", description: "Ship version 2", created_at: Date.UTC(2026, 11, 1, 9, 30), members: 2, tasks: { total: 3, pending: 2, in_progress: 1, completed: 0 } }]);
});

test("show: the members with their state, a gone one included, and the tasks with owners and open blockers", async () => {
  const r = await teams("show", "release");
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split("\n");
  expect(lines.slice(0, 4)).toEqual(["team release · lead s_lead · made 2026-12-01 09:30 UTC", "Ship version 2", "", "members:"]);
  expect(lines).toContain("- ghost (explore, s_gone) · gone");
  expect(lines.find((l) => l.startsWith("- tester (general, s_worker) · "))).toBeDefined();
  const tasks = lines.slice(lines.indexOf("tasks:") + 1);
  expect(tasks).toHaveLength(3);
  expect(tasks[0]).toMatch(/^#\d+ \[in_progress\] build the package \(tester\)$/);
  expect(tasks[1]).toMatch(/^#\d+ \[pending\] publish it \[blocked by #\d+\]$/);
  expect(tasks[2]).toMatch(/^#\d+ \[pending\] write the notes$/);
  const shown = JSON.parse((await teams("show", "release", "--json")).stdout);
  expect(shown.members.map((m: { name: string; state: string }) => [m.name, m.state])).toContainEqual(["ghost", "gone"]);
  expect(shown.tasks).toHaveLength(3);
});

test("a team name not there lists the teams there are; show without a name and another action are usage errors", async () => {
  expect(await teams("show", "nope")).toMatchObject({ code: 2, stderr: 'rein: no team named "nope" (teams: release)\n', stdout: "" });
  expect(await teams("show")).toMatchObject({ code: 2, stderr: "rein: rein teams show needs a team's name (see: rein teams list)\n" });
  expect(await teams("delete", "release")).toMatchObject({ code: 2, stderr: 'rein: unknown action "delete" (rein teams list | show NAME)\n' });
});
