// rein skills list: every skill and command, where it came from, and what failed to load.
import { homedir } from "node:os";
import { loadExtensions, skillNotes, skillProblems, type SkillsAndCommands } from "../session/skills.ts";
import { UsageError } from "../app/args.ts";
import { runPlugins, type Context } from "../app/context.ts";
import { out } from "../app/output.ts";

export function skillsCommand(rest: string[], ctx: Context): number {
  const [action = "list"] = rest;
  if (action !== "list") throw new UsageError(`unknown action "${action}" (rein skills list [--json])`);
  const loaded = loadExtensions({ cwd: ctx.cwd, projectRoot: ctx.projectRoot, home: ctx.env.HOME || homedir(), configDir: ctx.paths.configDir, trusted: ctx.trusted }, [], runPlugins(ctx));
  out(ctx.args.json ? `${JSON.stringify(asJson(loaded), null, 2)}\n` : listing(loaded));
  return 0;
}

function asJson(loaded: SkillsAndCommands) {
  const skills = loaded.skills.skills.map((s) => ({
    name: s.name,
    scope: s.scope,
    ...(s.plugin ? { plugin: s.plugin } : {}),
    file: s.file,
    description: s.description,
    model_invocable: s.modelInvocable,
    user_invocable: s.userInvocable,
    ...(s.allowedTools.length ? { allowed_tools: s.allowedTools } : {}),
  }));
  const commands = loaded.commands.map((c) => ({ name: `/${c.name}`, kind: c.kind, scope: c.source, ...(c.plugin ? { plugin: c.plugin } : {}), file: c.file, description: c.description }));
  return { skills, commands, problems: loaded.problems, warnings: loaded.skills.warnings, untrusted: loaded.skills.untrusted };
}

function listing(loaded: SkillsAndCommands): string {
  const lines: string[] = [];
  const { skills } = loaded.skills;
  lines.push(skills.length ? "skills:" : "no skills");
  const width = Math.max(0, ...skills.map((s) => s.name.length)) + 2;
  for (const s of skills) {
    const how = [s.modelInvocable ? "" : "not for the model", s.userInvocable ? "" : "no /command"].filter(Boolean).join(", ");
    lines.push(`  ${s.name.padEnd(width)}${origin(s).padEnd(8)} ${s.file}${how ? `  (${how})` : ""}`);
  }
  const commands = loaded.commands.filter((c) => c.kind === "command");
  if (commands.length) {
    lines.push("commands:");
    const w = Math.max(...commands.map((c) => c.name.length)) + 3;
    for (const c of commands) lines.push(`  ${`/${c.name}`.padEnd(w)}${origin({ scope: c.source, ...(c.plugin ? { plugin: c.plugin } : {}) }).padEnd(8)} ${c.file}`);
  }
  const problems = skillProblems(loaded);
  if (problems.length) lines.push("problems:", ...problems.map((p) => `  ${p}`));
  const notes = skillNotes(loaded);
  if (notes.length) lines.push("notes:", ...notes.map((n) => `  ${n}`));
  return `${lines.join("\n")}\n`;
}

/** user, project, or the plugin it came from */
function origin(item: { scope: string; plugin?: string }): string {
  return item.plugin ? `plugin ${item.plugin}` : item.scope;
}
