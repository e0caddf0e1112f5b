// One skill: a folder with a SKILL.md (Agent Skills standard, with Claude Code's extra fields).
import { basename, dirname } from "node:path";
import { readFrontMatter } from "../config/front-matter.ts";
import { readOwnBytes, readProblem } from "../sdk/own-file.ts";
import { toolRuleList } from "../permission/tool-rule.ts";
import { flag, hint, text } from "./front-matter.ts";

export type SkillScope = "project" | "user";
export type Skill = {
  name: string;
  description: string;
  /** the SKILL.md file */
  file: string;
  dir: string;
  scope: SkillScope;
  /** the folder it was found in (`.claude/skills`, `~/.agents/skills`...) */
  root: string;
  body: string;
  argumentHint?: string;
  model?: string;
  /** the plugin it came from (its name), for the listings */
  plugin?: string;
  /** `agent` of the front matter: `/name` hands the skill to that agent */
  agent?: string;
  allowedTools: string[];
  /** false: not in the model's catalog (`disable-model-invocation: true`) */
  modelInvocable: boolean;
  /** false: no `/name` command (`user-invocable: false`) */
  userInvocable: boolean;
};

/** A SKILL.md larger than this is not read (the standard recommends bodies under 5,000 tokens). */
export const MAX_SKILL_BYTES = 256 * 1024;
export const MAX_NAME = 64;
export const MAX_DESCRIPTION = 1024;
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads one SKILL.md; `warnings` hears what is off but tolerated, a string return says why it was skipped. */
/** `folderName`: what the skill is named after (its folder's name unless the caller knows better). */
export function readSkill(file: string, scope: SkillScope, root: string, warnings: string[], prefix = "", folderName?: string): Skill | string {
  const read = readSmall(file);
  if ("error" in read) return `${file}: ${read.error}`;
  const parsed = readFrontMatter(read.text);
  if ("error" in parsed) return `${file}: ${parsed.error}; the skill was not loaded`;
  if (!parsed.present) return `${file}: no front matter; start the file with a "---" block holding name and description`;
  const dir = dirname(file);
  const name = folderName ?? basename(dir);
  const declared = text(parsed.data.name);
  const description = text(parsed.data.description);
  if (!description) return `${file}: no description in the front matter; the skill was not loaded (add "description: what it does and when to use it")`;
  if (declared !== undefined && declared !== name) warnings.push(`${file}: name "${declared}" differs from its folder "${name}"; it is used as /${prefix}${name}`);
  if (!NAME.test(name) || name.length > MAX_NAME) warnings.push(`${file}: "${name}" is not a valid skill name (1-${MAX_NAME} of a-z, 0-9 and single hyphens)`);
  if (description.length > MAX_DESCRIPTION) warnings.push(`${file}: the description is ${description.length} characters; only the first ${MAX_DESCRIPTION} are shown to the model`);
  const argumentHint = hint(parsed.data["argument-hint"]);
  const model = text(parsed.data.model);
  const agent = text(parsed.data.agent);
  const allowedTools = toolRuleList(parsed.data["allowed-tools"]) ?? [];
  return {
    name: `${prefix}${name}`,
    description: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
    file,
    dir,
    scope,
    root,
    body: parsed.body,
    ...(argumentHint ? { argumentHint } : {}),
    ...(model ? { model } : {}),
    ...(agent ? { agent } : {}),
    allowedTools,
    modelInvocable: !flag(parsed.data["disable-model-invocation"], false),
    userInvocable: flag(parsed.data["user-invocable"], true),
  };
}

/** The file's text, or why not; never reads more than MAX_SKILL_BYTES (nor blocks on a named pipe). */
export function readSmall(file: string, max = MAX_SKILL_BYTES): { text: string } | { error: string } {
  try {
    const { bytes, size, cut } = readOwnBytes(file, max);
    if (cut) return { error: `the file is ${(size / (1024 * 1024)).toFixed(1)} MiB; files over ${max / 1024} KiB are not loaded (move long material into files next to it)` };
    return { text: utf8.decode(bytes) };
  } catch (error) {
    if (error instanceof TypeError) return { error: "not UTF-8 text; save it as UTF-8" };
    return { error: readProblem(error) };
  }
}
