// Finds the skills of a run: `.rein/skills`, `.agents/skills` and `.claude/skills` from the working
// directory up to the project root (a trusted workspace only), then the user's folders. The first
// found of a name wins, so the nearer one does; problems are data, one line each.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { foldersUpTo } from "../config/find-project-root.ts";
import { sortByName } from "./by-name.ts";
import { pathKind } from "./path-kind.ts";
import { readSkill, type Skill, type SkillScope } from "./skill.ts";

import type { CustomCommand } from "./commands.ts";

export type SkillPlaces = {
  cwd: string;
  projectRoot: string;
  home: string;
  configDir: string;
  trusted: boolean;
  /** skills folders of plugins, their skills named `prefix` + folder (`plugin:skill`); `single`: `dir` is one skill of that name */
  extra?: readonly { dir: string; prefix: string; single?: string }[];
  /** commands written in a config file (OpenCode's `command` entries): a command file of the same name wins */
  commands?: readonly CustomCommand[];
};
export type SkillLoad = { skills: Skill[]; problems: string[]; warnings: string[]; untrusted: string[] };
export type SkillRoot = { dir: string; scope: SkillScope; prefix?: string; single?: string };

const PROJECT_FOLDERS = [".rein/skills", ".agents/skills", ".claude/skills", ".opencode/skills", ".opencode/skill"];

/** The folders skills are read from, nearest first. */
export function skillRoots(places: Omit<SkillPlaces, "trusted">): SkillRoot[] {
  const roots: SkillRoot[] = [];
  const user = [join(places.configDir, "skills"), join(places.home, ".agents", "skills"), join(places.home, ".claude", "skills"), join(places.home, ".config", "opencode", "skills")];
  // Started in the home folder, ~/.claude/skills is the user's folder, not a project's copy of it.
  for (const dir of foldersUpTo(places.cwd, places.projectRoot)) for (const folder of PROJECT_FOLDERS) if (!user.includes(join(dir, folder))) roots.push({ dir: join(dir, folder), scope: "project" });
  for (const dir of user) roots.push({ dir, scope: "user" });
  for (const { dir, prefix, single } of places.extra ?? []) roots.push({ dir, scope: "user", prefix, ...(single ? { single } : {}) });
  return roots;
}

export function loadSkills(places: SkillPlaces): SkillLoad {
  const load: SkillLoad = { skills: [], problems: [], warnings: [], untrusted: [] };
  const byName = new Map<string, Skill>();
  for (const root of skillRoots(places)) {
    const files = root.single ? [join(root.dir, "SKILL.md")] : skillFiles(root.dir, load.problems);
    if (root.scope === "project" && !places.trusted) {
      if (files.length) load.untrusted.push(root.dir);
      continue;
    }
    for (const file of files) {
      const skill = readSkill(file, root.scope, root.dir, load.warnings, root.prefix, root.single);
      if (typeof skill === "string") {
        load.problems.push(skill);
        continue;
      }
      const first = byName.get(skill.name);
      if (first) load.warnings.push(`${skill.file}: skill "${skill.name}" is also in ${first.file}, which wins (it is nearer)`);
      else byName.set(skill.name, skill);
    }
  }
  load.skills = sortByName([...byName.values()]);
  return load;
}

/** The `*\/SKILL.md` files of a folder; symlinked folders are followed, a loop or broken link is a problem. */
function skillFiles(root: string, problems: string[]): string[] {
  let entries: string[];
  try {
    entries = readdirSync(root).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") problems.push(`${root}: cannot read this skills folder (${code ?? String(error)})`);
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.startsWith(".")) continue;
    const dir = join(root, entry);
    const kind = pathKind(dir);
    if (kind === "other" || kind === "file") continue;
    if (kind !== "dir") {
      problems.push(`${dir}: cannot read it (${kind.error}); fix or remove the link`);
      continue;
    }
    const file = join(dir, "SKILL.md");
    const inner = pathKind(file);
    if (inner === "file") files.push(file);
    else if (inner === "other") problems.push(`${file}: skipped: it is not a regular file`);
    else if (typeof inner === "object" && inner.error !== "ENOENT") problems.push(`${file}: cannot read it (${inner.error})`);
  }
  return files;
}
