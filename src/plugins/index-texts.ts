// The long texts of an installed plugin's components (a skill's body, a command's template, an
// agent's prompt: about half of what reading a plugin gives) stay out of the installed plugins'
// index and are read from their files when used: a start needs only names, descriptions and fields.
// What withPluginRoots (session/skills.ts) does to a plugin's skills and commands is done here,
// when a text is read: they are marked with their plugin, and ${CLAUDE_PLUGIN_ROOT} and
// ${CLAUDE_PLUGIN_DATA} filled. The copy never changes in place, so a file holds what reading the
// copy gave; were it gone, the text says so.
import { splitFrontMatter } from "../config/front-matter.ts";
import { lazyFields, type LazyFieldSpec } from "../sdk/lazy-field.ts";
import { readOwnText, readProblem } from "../sdk/own-file.ts";
import { readSmall } from "../skills/skill.ts";
import { fillPluginVars } from "./plugin-env.ts";
import type { ComponentReads } from "./plugin-index.ts";
import type { Plugin } from "./read-plugin.ts";

/** The plugin without those texts, for the index (a lazy one is left unread). */
export function withoutTexts(plugin: Plugin): Plugin {
  if (!plugin.read) return plugin;
  const { skills, commands, agents } = plugin.read;
  const read: ComponentReads = {
    skills: mapValues(skills, (r) => ({ ...r, entries: r.entries.map((e) => ("skill" in e ? { ...e, skill: omit(e.skill, "body") } : e)) })),
    commands: mapValues(commands, (r) => ({ ...r, entries: r.entries.map((e) => ("problem" in e ? e : omit(e, "template"))) })),
    agents: mapValues(agents, (r) => ({ ...r, parsed: r.parsed.map((p) => (p.agent ? { ...p, agent: omit(p.agent, "prompt") } : p)) })),
  };
  return { ...plugin, read };
}

/**
 * The plugins from the index, their texts read from their files on first use. One call for all of a
 * start's plugins, in loops, with no small function called per text: a function called a few
 * hundred times at a start (50 plugins: 150 texts) is compiled by JavaScriptCore's optimizing JIT,
 * which costs more than the calls.
 */
export function withTextsOnUse(plugins: readonly Plugin[]): void {
  const fields: LazyFieldSpec[] = [];
  for (const plugin of plugins) {
    if (!plugin.read) continue;
    for (const root of Object.values(plugin.read.skills)) {
      for (const e of root.entries) {
        if (!("skill" in e)) continue;
        const file = e.skill.file;
        e.skill.plugin = plugin.name;
        fields.push([e.skill, "body", () => fillPluginVars(bodyOf(file, smallText), plugin)]);
      }
    }
    for (const dir of Object.values(plugin.read.commands)) {
      for (const e of dir.entries) {
        if ("problem" in e) continue;
        const file = e.file;
        e.plugin = plugin.name;
        fields.push([e, "template", () => fillPluginVars(bodyOf(file, smallText), plugin)]);
      }
    }
    // an agent's prompt is its body trimmed (agents/front-matter.ts)
    for (const dir of Object.values(plugin.read.agents)) {
      for (const p of dir.parsed) {
        const agent = p.agent;
        if (agent) fields.push([agent, "prompt", () => bodyOf(agent.source, readOwnText).trim()]);
      }
    }
  }
  lazyFields(fields);
}

/** A skill's or command's file as their loaders read it (skills/skill.ts). */
function smallText(file: string): string {
  const read = readSmall(file);
  if ("error" in read) throw new Error(read.error);
  return read.text;
}

/** What the loaders take as the text: the body after the front matter. */
function bodyOf(file: string, read: (file: string) => string): string {
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    const why = error instanceof Error && !("code" in error) ? error.message : readProblem(error);
    return `(rein could not read ${file}: ${why}; run rein plugin update for its plugin)`;
  }
  const split = splitFrontMatter(text);
  return "body" in split ? split.body : "";
}

/** A copy without `key`, the other fields as they are (a getter is not called). */
function omit<T extends object>(value: T, key: keyof T): T {
  const fields = Object.getOwnPropertyDescriptors(value) as Record<PropertyKey, PropertyDescriptor>;
  delete fields[key];
  return Object.defineProperties({}, fields) as T;
}

function mapValues<V>(record: Record<string, V>, map: (value: V) => V): Record<string, V> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
