// A session's skills and commands as the factory asks for them: when none of the folders skills and
// commands are read from is there, and no plugin, config entry or MCP server brings any, the session
// gets an empty set without loading the readers, the catalog or the skill tool (skills.ts).
import { existsSync } from "node:fs";
import { slashWord } from "../skills/expand.ts";
import { commandDirs, skillRoots } from "../skills/places.ts";
import type { SkillPlaces } from "../skills/discover.ts";
import type { SkillsAndCommands } from "../skills/slash-commands.ts";
import type { SessionSkillOptions, SessionSkills } from "./skills.ts";

export function runSessionSkills(places: SkillPlaces, contextWindow: number, options: SessionSkillOptions = {}): SessionSkills {
  if (!nothingToLoad(places, options)) return (require("./skills.ts") as typeof import("./skills.ts")).sessionSkills(places, contextWindow, options);
  const loaded = { skills: { skills: [], problems: [], warnings: [], untrusted: [] }, commands: [], problems: [], trusted: places.trusted, plugins: [] };
  return {
    loaded,
    catalog: "",
    grants: [],
    approvals: () => [{ permission: "skill", pattern: "*", action: "allow", source: "skills" }],
    plan: async (text) => {
      const word = slashWord(text);
      return word ? { type: "unknown", name: word.name, known: [] } : { type: "text" };
    },
  };
}

function nothingToLoad(places: SkillPlaces, options: SessionSkillOptions): boolean {
  if (places.extra?.length || places.commands?.length || options.prompts) return false;
  const plugins = options.plugins;
  if (plugins && (plugins.plugins.length || plugins.problems.length || plugins.sources.commands.length || plugins.sources.skills.length)) return false;
  return ![...skillRoots(places), ...commandDirs(places)].some((root) => existsSync(root.dir));
}

/**
 * What a front end says at start about skills and commands: what did not load, one line each. What
 * loaded with a remark (a name unlike its folder, a long description) is for rein skills list and
 * rein doctor (skillNotes).
 */
export function skillProblems(loaded: SkillsAndCommands): string[] {
  const untrusted = loaded.skills.untrusted.map((dir) => `project skills in ${dir} were not loaded: this workspace is not trusted (run with --trust to load them)`);
  return [...loaded.problems, ...untrusted];
}

/** Why a `/name` prompt cannot run (an unknown command, listing the known ones, or a model that cannot run), or undefined. */
export async function commandProblem(prompt: string, skills: SessionSkills | undefined): Promise<string | undefined> {
  // An MCP server's prompt is fetched once, by the run, which reports what goes wrong with it; its
  // arguments are checked here, a usage error as an unknown command is.
  const word = slashWord(prompt);
  if (word && skills?.prompts?.owns(word.name)) return skills.prompts.check(word.name, word.args);
  const plan = await skills?.plan(prompt);
  if (plan?.type === "error") return plan.error;
  if (plan?.type !== "unknown") return undefined;
  const known = plan.known.length ? `the commands here are ${plan.known.map((n) => `/${n}`).join(", ")}` : "there are no commands or skills here";
  return `unknown command /${plan.name}: ${known} (rein skills list shows where they come from; start the prompt with a space to send it as text)`;
}
