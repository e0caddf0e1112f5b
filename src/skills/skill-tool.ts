// The skill tool: loads a skill's body (its arguments expanded) and lists the files of its folder,
// which the model reads with the normal tools, through the permissions. Using a skill grants its
// `allowed-tools` for the rest of the run.
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import * as v from "valibot";
import description from "../../prompts/tools/skill.txt" with { type: "text" };
import { defineTool, type Tool } from "../sdk.ts";
import { once } from "../sdk/once.ts";
import { expandTemplate } from "./expand.ts";
import type { Skill } from "./skill.ts";

const MAX_FILES = 50;
const MAX_DEPTH = 4;

// Made at the first call (the input's check): the model reads SKILL_INPUT_SCHEMA, which is this
// schema as tool-schema.ts converts it (test/unit/skills/skill-tool-schema.test.ts holds them equal).
// A start with skills builds no valibot schema for it: with plugins' other starts' schemas, those
// would push valibot's constructors into JavaScriptCore's optimizing JIT.
export const skillInput = once(() =>
  v.object({
    name: v.pipe(v.string(), v.description("The skill's name, as the catalog lists it")),
    args: v.optional(v.pipe(v.string(), v.description("Arguments for the skill, if it takes any"))),
  }),
);

export const SKILL_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    name: { type: "string", description: "The skill's name, as the catalog lists it" },
    args: { type: "string", description: "Arguments for the skill, if it takes any" },
  },
  required: ["name"],
};

export function skillTool(skills: readonly Skill[], onUse: (skill: Skill) => void): Tool {
  const byName = new Map<string, Skill>();
  for (const s of skills) if (s.modelInvocable) byName.set(s.name, s); // a loop: see skills/by-name.ts
  const tool = defineTool({
    name: "skill",
    description,
    get input() {
      return skillInput();
    },
    readOnly: true,
    // `--deny 'skill(name)'` keeps a skill from the model; the session allows the rest.
    permissions: ({ name }) => [{ permission: "skill", pattern: name, always: [name] }],
    run: ({ name, args }) => {
      const skill = byName.get(name.replace(/^\//, ""));
      if (!skill) return { output: `No skill named "${name}". The skills are: ${[...byName.keys()].join(", ") || "none"}.`, isError: true };
      onUse(skill);
      return skillText(skill, args ?? "");
    },
  });
  return Object.assign(tool, { inputSchema: SKILL_INPUT_SCHEMA });
}

/** What a loaded skill reads as: its body in a tag naming it and its folder, then the folder's other files. */
export function skillText(skill: Skill, args: string): string {
  const body = expandTemplate(skill.body.replaceAll("${CLAUDE_SKILL_DIR}", skill.dir), args).trim();
  const files = folderFiles(skill.dir).filter((f) => f !== "SKILL.md");
  const listing = files.length ? `\n\nFiles in ${skill.dir} (paths relative to it):\n${files.join("\n")}` : "";
  return `<skill name="${skill.name}" dir="${skill.dir}">\n${body}\n</skill>${listing}`;
}

/** Up to MAX_FILES paths under `dir`, sorted; a folder reached twice (a symlink loop) is walked once. */
function folderFiles(dir: string): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const walk = (current: string, depth: number) => {
    let real: string;
    try {
      real = realpathSync(current);
    } catch {
      return;
    }
    if (seen.has(real) || depth > MAX_DEPTH) return;
    seen.add(real);
    let entries: string[];
    try {
      entries = readdirSync(current).sort();
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files.length >= MAX_FILES) return;
      if (entry.startsWith(".")) continue;
      const path = join(current, entry);
      try {
        const info = statSync(path);
        if (info.isDirectory()) walk(path, depth + 1);
        else if (info.isFile()) files.push(relative(dir, path));
      } catch {
        continue;
      }
    }
  };
  walk(dir, 0);
  return files;
}
