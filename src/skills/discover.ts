// Finds the skills of a run: `.rein/skills`, `.agents/skills` and `.claude/skills` from the working
// directory up to the project root (a trusted workspace only), then the user's folders. The first
// found of a name wins, so the nearer one does; problems are data, one line each.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { sortByName } from "./by-name.ts";
import { pathKind } from "./path-kind.ts";
import { skillRoots } from "./places.ts";
import { readSkill, type Skill, type SkillScope } from "./skill.ts";

import type { CustomCommand } from "./commands.ts";

export type SkillPlaces = {
  cwd: string;
  projectRoot: string;
  home: string;
  configDir: string;
  trusted: boolean;
  /** skills folders of plugins, their skills named `prefix` + folder (`plugin:skill`); `single`: `dir` is one skill of that name; `read`: what reading it gave, from an installed copy's index */
  extra?: readonly { dir: string; prefix: string; single?: string; read?: SkillRootRead }[];
  /** commands written in a config file (OpenCode's `command` entries): a command file of the same name wins */
  commands?: readonly CustomCommand[];
};
export type SkillLoad = { skills: Skill[]; problems: string[]; warnings: string[]; untrusted: string[] };
export type SkillRoot = { dir: string; scope: SkillScope; prefix?: string; single?: string; read?: SkillRootRead };

export { skillRoots } from "./places.ts";

export function loadSkills(places: SkillPlaces): SkillLoad {
  const load: SkillLoad = { skills: [], problems: [], warnings: [], untrusted: [] };
  const byName = new Map<string, Skill>();
  for (const root of skillRoots(places)) {
    if (root.scope === "project" && !places.trusted) {
      if (filesOf(root, load.problems).length) load.untrusted.push(root.dir);
      continue;
    }
    const read = root.read ?? readSkillRoot(root);
    load.problems.push(...read.problems);
    for (const entry of read.entries) {
      if ("problem" in entry) {
        load.problems.push(entry.problem);
        continue;
      }
      const { skill } = entry;
      load.warnings.push(...entry.warnings);
      const first = byName.get(skill.name);
      if (first) load.warnings.push(`${skill.file}: skill "${skill.name}" is also in ${first.file}, which wins (it is nearer)`);
      else byName.set(skill.name, skill);
    }
  }
  load.skills = sortByName([...byName.values()]);
  return load;
}

/** What one skills folder gives: what listing it found wrong, then each SKILL.md read (with what is off in it) or why it was skipped. */
export type SkillRootRead = { problems: string[]; entries: ({ skill: Skill; warnings: string[] } | { problem: string })[] };

/** Reads one folder of skills (or the one skill it is) as loadSkills does: an installed plugin's index keeps this. */
export function readSkillRoot(root: SkillRoot): SkillRootRead {
  const problems: string[] = [];
  const entries = filesOf(root, problems).map((file) => {
    const warnings: string[] = [];
    const skill = readSkill(file, root.scope, root.dir, warnings, root.prefix, root.single);
    return typeof skill === "string" ? { problem: skill } : { skill, warnings };
  });
  return { problems, entries };
}

function filesOf(root: SkillRoot, problems: string[]): string[] {
  return root.single ? [join(root.dir, "SKILL.md")] : skillFiles(root.dir, problems);
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
