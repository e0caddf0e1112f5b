// Everything a `/name args` prompt can be, for every front end: custom commands and the skills a
// user may invoke. A skill wins over a command of the same name, as in Claude Code.
import type { ContentBlock } from "../agent/types.ts";
import type { Rule } from "../permission/evaluate.ts";
import { sortByName } from "./by-name.ts";
import { commandDirs, loadCustomCommands, type CommandDir, type CustomCommand } from "./commands.ts";
import { loadSkills, type SkillLoad, type SkillPlaces } from "./discover.ts";
import { expandTemplate, slashWord } from "./expand.ts";
import { grantRules } from "./grants.ts";
import { withFields } from "../sdk/lazy-field.ts";
import { skillText } from "./skill-tool.ts";
import type { Skill } from "./skill.ts";

export type SlashCommand = CustomCommand & { kind: "command" } | (CustomCommand & { kind: "skill"; skill: Skill });
export type SkillsAndCommands = { skills: SkillLoad; commands: SlashCommand[]; problems: string[]; trusted: boolean };

/** What a prompt's text turns into: itself, a command's expansion, or an unknown command. */
export type SlashPlan =
  | { type: "text" }
  | { type: "unknown"; name: string; known: string[] }
  /** `untrusted`: the repository's own command in a workspace that is not trusted: its text can steer, and taints the session */
  | { type: "command"; name: string; text: string; model?: string; agent?: string; grants: Rule[]; attachments?: ContentBlock[]; untrusted?: true };

/** `extraCommands` (plugins' folders, names prefixed) are the weakest: any other command of the same name wins. */
export function loadSkillsAndCommands(places: SkillPlaces, builtins: readonly string[] = [], extraCommands?: readonly CommandDir[]): SkillsAndCommands {
  const skills = loadSkills(places);
  const custom = loadCustomCommands([...(extraCommands ?? []), ...commandDirs(places)], builtins);
  // withFields, not a spread: an installed plugin's templates are read when used (sdk/lazy-field.ts)
  const byName = new Map<string, SlashCommand>();
  // a loop, not map: map's calls over a start's plugin commands add up past JavaScriptCore's optimizing threshold
  for (const c of custom.commands) byName.set(c.name, withFields(c, { kind: "command" as const }));
  const reserved = new Set(builtins);
  for (const command of places.commands ?? []) if (!byName.has(command.name) && !reserved.has(command.name)) byName.set(command.name, { ...command, kind: "command" });
  const problems = [...skills.problems, ...custom.problems];
  for (const skill of skills.skills) {
    if (!skill.userInvocable) continue;
    if (reserved.has(skill.name)) problems.push(`${skill.file}: /${skill.name} is a built-in command; the skill is not a command here (the model can still load it)`);
    else byName.set(skill.name, asCommand(skill));
  }
  const commands = sortByName([...byName.values()]);
  return { skills, commands, problems, trusted: places.trusted };
}

export function planSlash(text: string, commands: readonly SlashCommand[], trusted: boolean): SlashPlan {
  const word = slashWord(text);
  if (!word) return { type: "text" };
  const command = commands.find((c) => c.name === word.name);
  if (!command) return { type: "unknown", name: word.name, known: commands.map((c) => c.name) };
  // A repository's command may not loosen the rules of an untrusted workspace.
  const tools = command.source === "project" && !trusted ? [] : (command.allowedTools ?? []);
  return {
    type: "command",
    name: command.name,
    text: command.kind === "skill" ? skillText(command.skill, word.args) : expandTemplate(command.template, word.args),
    ...(command.model ? { model: command.model } : {}),
    ...(command.agent ? { agent: command.agent } : {}),
    grants: grantRules(tools, `allowed-tools of /${command.name}`),
    ...(command.source === "project" && !trusted ? { untrusted: true as const } : {}),
  };
}

/** A skill as a command: the prompt is the loaded skill, as the skill tool would give it (its body read when used). */
function asCommand(skill: Skill): SlashCommand {
  return {
    kind: "skill",
    skill,
    name: skill.name,
    description: skill.description,
    source: skill.scope,
    file: skill.file,
    get template() {
      return skill.body;
    },
    ...(skill.plugin ? { plugin: skill.plugin } : {}),
    ...(skill.argumentHint ? { argumentHint: skill.argumentHint } : {}),
    ...(skill.model ? { model: skill.model } : {}),
    ...(skill.agent ? { agent: skill.agent } : {}),
    ...(skill.allowedTools.length ? { allowedTools: skill.allowedTools } : {}),
  };
}
