// The skills and commands of a session: the catalog for the system prompt, the skill tool, and the
// planner that turns a prompt starting with `/name` into the command's text, for every front end.
import type { Tool } from "../sdk.ts";
import type { Rule } from "../permission/evaluate.ts";
import { catalogBudget, skillCatalog } from "../skills/catalog.ts";
import type { SkillPlaces } from "../skills/discover.ts";
export type { SkillPlaces } from "../skills/discover.ts";
import { forAgent, resolveAgent } from "../skills/agent-command.ts";
import { grantProblems, grantRules } from "../skills/grants.ts";
import { skillTool } from "../skills/skill-tool.ts";
import { loadSkillsAndCommands, planSlash, type SkillsAndCommands, type SlashCommand, type SlashPlan } from "../skills/slash-commands.ts";
import { NO_PLUGINS, type ActivePlugins } from "../plugins/active.ts";
import type { Plugin } from "../plugins/plugins.ts";
import type { Skill } from "../skills/skill.ts";
import { fillPluginVars } from "../plugins/plugin-env.ts";
import { slashWord } from "../skills/expand.ts";
import type { PromptCommands } from "../mcp/prompts.ts";

export type { SkillsAndCommands, SlashCommand, SlashPlan } from "../skills/slash-commands.ts";
export { completeSlash } from "../skills/commands.ts";
export { commandProblem, skillProblems } from "./run-skills.ts";

export type Extensions = SkillsAndCommands & { plugins: Plugin[] };

/** The skills and commands of a workspace, with those of the run's plugins (whose load problems are listed with them). */
export function loadExtensions(places: SkillPlaces, builtins?: readonly string[], active: ActivePlugins = NO_PLUGINS): Extensions {
  const { plugins, sources } = active;
  const commands: (typeof sources.commands[number] & { source: "user" })[] = [];
  for (const c of sources.commands) commands.push({ ...c, source: "user" as const }); // a loop, not map: see withPluginRoots
  const loaded = withPluginRoots(loadSkillsAndCommands({ ...places, extra: sources.skills }, builtins, commands), plugins);
  return { ...loaded, plugins, problems: [...active.problems, ...loaded.problems] };
}

const LOAD_ANY_SKILL: Rule = { permission: "skill", pattern: "*", action: "allow", source: "skills" };

export type SessionSkills = {
  loaded: Extensions;
  /** the catalog, to end the system prompt ("" without skills for the model) */
  catalog: string;
  tool?: Tool;
  /** rules granted by the commands and skills used in the run under way; emptied when it ends */
  grants: Rule[];
  /** what the broker counts as approved: loading any skill, and the run's grants (a configured deny still wins) */
  approvals(): readonly Rule[];
  /** what a prompt's text turns into; a command of `prompts` (an MCP server's prompt) is fetched */
  plan(text: string, signal?: AbortSignal): Promise<SlashPlan | { type: "error"; error: string }>;
  /** commands from elsewhere: the MCP servers' prompts */
  prompts?: PromptCommands;
};

export type SessionSkillOptions = {
  /** why a model a command names cannot run (undefined: it can) */
  modelProblem?: (model: string) => string | undefined;
  builtins?: readonly string[];
  plugins?: ActivePlugins;
  prompts?: PromptCommands;
  /** the agents a task can run, for commands that name an `agent` */
  subagents?: readonly string[];
  /** the primary agent the session runs as (build when none is chosen): a command for it runs in the session itself */
  primary?: string;
};

export function sessionSkills(places: SkillPlaces, contextWindow: number, options: SessionSkillOptions = {}): SessionSkills {
  const { modelProblem, builtins, plugins, prompts, subagents = [], primary = "build" } = options;
  const loaded = loadExtensions(places, builtins, plugins);
  const grants: Rule[] = [];
  const forModel = loaded.skills.skills.filter((s) => s.modelInvocable);
  const tool = forModel.length
    ? skillTool(forModel, (skill) => grants.push(...grantRules(skill.scope === "project" && !places.trusted ? [] : skill.allowedTools, `allowed-tools of skill ${skill.name}`)))
    : undefined;
  return {
    loaded,
    catalog: skillCatalog(forModel, catalogBudget(contextWindow)),
    ...(tool ? { tool } : {}),
    grants,
    approvals: () => [LOAD_ANY_SKILL, ...grants],
    ...(prompts ? { prompts } : {}),
    plan: async (text, signal) => {
      const plan = planSlash(text, loaded.commands, places.trusted);
      if (plan.type === "unknown" && prompts) return promptPlan(plan, slashWord(text)?.args ?? "", prompts, signal);
      if (plan.type !== "command") return plan;
      const problem = plan.model ? modelProblem?.(plan.model) : undefined;
      if (problem) return { type: "error", error: `/${plan.name} asks for the model ${plan.model} (its front matter), which cannot run: ${problem}` };
      if (!plan.agent) return plan;
      // OpenCode's `agent: build` / `agent: plan` name a primary agent: the command runs in the session
      // when it runs as that agent; plan's rules are never dropped for a command run elsewhere.
      if (PRIMARY.includes(plan.agent)) {
        if (plan.agent === primary || plan.agent === "build") return { ...plan, agent: undefined };
        return { type: "error", error: `/${plan.name} is for the ${plan.agent} agent (its front matter): switch to it first (Tab in the terminal, or --agent ${plan.agent})` };
      }
      const agent = resolveAgent(plan.name, plan.agent, subagents);
      return "error" in agent ? { type: "error", error: agent.error } : { ...plan, agent: agent.agent, text: forAgent(plan.text, agent.agent) };
    },
  };
}

const PRIMARY = ["build", "plan"];

/** A name no command or skill has: an MCP server's prompt, or unknown (the servers' prompts listed too). */
async function promptPlan(plan: Extract<SlashPlan, { type: "unknown" }>, args: string, prompts: PromptCommands, signal?: AbortSignal): Promise<SlashPlan | { type: "error"; error: string }> {
  if (!prompts.owns(plan.name)) return { ...plan, known: [...plan.known, ...(await prompts.list()).map((c) => c.name)] };
  const got = await prompts.expand(plan.name, args, signal);
  if ("error" in got) return { type: "error", error: got.error };
  return { type: "command", name: plan.name, text: got.text, grants: [], attachments: got.attachments };
}

/** `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` in a plugin's commands and skills, as in Claude Code. */
function withPluginRoots(loaded: SkillsAndCommands, plugins: readonly Plugin[]): SkillsAndCommands {
  if (!plugins.length) return loaded;
  // A user's own command may carry a plugin's prefix (commands/kit/go.md is /kit:go): its file tells.
  // By prefix, not a walk over every plugin for every name (150 names and 50 plugins at a start);
  // the first plugin of the list whose prefix a name has, as a walk would find it.
  const byPrefix = new Map<string, { plugin: Plugin; order: number; root: string }>();
  plugins.forEach((plugin, order) => {
    if (!byPrefix.has(`${plugin.name}:`)) byPrefix.set(`${plugin.name}:`, { plugin, order, root: `${plugin.root}/` });
  });
  // Each name's plugin, for every skill then every command, in one loop: a function called per name
  // (200 at a start with 50 plugins) is compiled by JavaScriptCore's optimizing JIT.
  const named: { name: string; file: string }[] = [...loaded.skills.skills, ...loaded.commands];
  const owners: (Plugin | undefined)[] = [];
  for (const { name, file } of named) {
    let found: { plugin: Plugin; order: number; root: string } | undefined;
    for (let at = name.indexOf(":"); at >= 0; at = name.indexOf(":", at + 1)) {
      const candidate = byPrefix.get(name.slice(0, at + 1));
      if (candidate && (!found || candidate.order < found.order)) found = candidate;
    }
    owners.push(found && file.startsWith(found.root) ? found.plugin : undefined);
  }
  const count = loaded.skills.skills.length;
  // An installed plugin's skills and commands come from its index with this done (plugins/index-texts.ts).
  // Loops, not map (as above).
  const skills: Skill[] = [];
  const byName = new Map<string, Skill>();
  for (let i = 0; i < count; i++) {
    const s = loaded.skills.skills[i]!;
    const plugin = owners[i];
    const skill = plugin && s.plugin !== plugin.name ? { ...s, plugin: plugin.name, body: fillPluginVars(s.body, plugin) } : s;
    skills.push(skill);
    byName.set(skill.name, skill);
  }
  const commands: SlashCommand[] = [];
  for (let i = 0; i < loaded.commands.length; i++) {
    const c = loaded.commands[i]!;
    const plugin = owners[count + i];
    if (!plugin || (c.plugin === plugin.name && (c.kind !== "skill" || byName.get(c.name) === c.skill))) commands.push(c);
    else if (c.kind !== "skill") commands.push({ ...c, plugin: plugin.name, template: fillPluginVars(c.template, plugin) });
    else {
      const skill = byName.get(c.name) ?? c.skill;
      commands.push({ ...c, plugin: plugin.name, skill, template: skill.body });
    }
  }
  return { ...loaded, skills: { ...loaded.skills, skills }, commands };
}

/** Remarks on what loaded; `allowed-tools` entries that grant nothing are checked here, not at every start (a parse each). */
export function skillNotes(loaded: SkillsAndCommands): string[] {
  const files = new Map<string, readonly string[]>();
  for (const skill of loaded.skills.skills) if (skill.allowedTools.length) files.set(skill.file, skill.allowedTools);
  for (const command of loaded.commands) if (command.allowedTools?.length) files.set(command.file, command.allowedTools);
  const grants = [...files].flatMap(([file, tools]) => grantProblems(tools).map((problem) => `${file}: ${problem}`));
  return [...loaded.skills.warnings, ...grants];
}

