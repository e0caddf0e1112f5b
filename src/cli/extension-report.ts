// What reading the extensions (plugins, agents, skills and commands, hooks) found, in two kinds:
// problems (something did not load: one line each, also said when a run starts) and notes
// (something loaded with a part left out or read leniently: only here, rein doctor and
// rein plugin list). A run's start stays quiet about things that loaded.
import { homedir } from "node:os";
import { loadAgents } from "../app/factory.ts";
import { loadExtensions, skillNotes, skillProblems } from "../session/skills.ts";
import { agentPlaces, runHooks, runPlugins, type Context } from "../app/context.ts";

export type ExtensionReport = { problems: string[]; notes: string[] };

export function extensionReport(ctx: Context): ExtensionReport {
  const active = runPlugins(ctx);
  const loaded = loadExtensions({ cwd: ctx.cwd, projectRoot: ctx.projectRoot, home: ctx.env.HOME || homedir(), configDir: ctx.paths.configDir, trusted: ctx.trusted }, [], active);
  const { report } = loadAgents(agentPlaces(ctx));
  const hooks = runHooks(ctx);
  const problems = [...new Set([...skillProblems(loaded), ...report.warnings, ...hooks.warnings])];
  const notes = [...new Set([...skillNotes(loaded), ...report.notes, ...hooks.notes])];
  return { problems, notes };
}
