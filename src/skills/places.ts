// Where skills and commands are looked for, without reading any (discover.ts and commands.ts read
// them): enough for a run to see that none of the folders is there and load neither reader.
import { join } from "node:path";
import { foldersUpTo } from "../config/find-project-root.ts";
import type { SkillPlaces, SkillRoot } from "./discover.ts";
import type { CommandDir } from "./commands.ts";

const PROJECT_FOLDERS = [".rein/skills", ".agents/skills", ".claude/skills", ".opencode/skills", ".opencode/skill"];

/** The folders skills are read from, nearest first. */
export function skillRoots(places: Omit<SkillPlaces, "trusted">): SkillRoot[] {
  const roots: SkillRoot[] = [];
  const user = [join(places.configDir, "skills"), join(places.home, ".agents", "skills"), join(places.home, ".claude", "skills"), join(places.home, ".config", "opencode", "skills")];
  // Started in the home folder, ~/.claude/skills is the user's folder, not a project's copy of it.
  for (const dir of foldersUpTo(places.cwd, places.projectRoot)) for (const folder of PROJECT_FOLDERS) if (!user.includes(join(dir, folder))) roots.push({ dir: join(dir, folder), scope: "project" });
  for (const dir of user) roots.push({ dir, scope: "user" });
  for (const { dir, prefix, single, read } of places.extra ?? []) roots.push({ dir, scope: "user", prefix, ...(single ? { single } : {}), ...(read ? { read } : {}) });
  return roots;
}

/** The folders commands are read from, the weakest first: OpenCode's, Claude Code's, then rein's; the user's before the project's. */
export function commandDirs(places: { projectRoot: string; home: string; configDir: string }): CommandDir[] {
  const { projectRoot, home, configDir } = places;
  const user = [join(home, ".config", "opencode", "command"), join(home, ".config", "opencode", "commands"), join(home, ".claude", "commands"), join(configDir, "commands")];
  const project = [".opencode/command", ".opencode/commands", ".claude/commands", ".rein/commands"].map((dir) => join(projectRoot, dir));
  return [...user.map((dir) => ({ dir, source: "user" as const })), ...project.map((dir) => ({ dir, source: "project" as const }))];
}
