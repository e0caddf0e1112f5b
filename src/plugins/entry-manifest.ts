// A marketplace entry's own component lists (`skills`, `commands`, `agents`, `hooks`, `mcpServers`,
// `lspServers`) and its `strict`, as Claude Code reads them: with `strict: false` the entry is the
// plugin's definition (the components of a plugin.json are not read, and an entry's `skills` list is
// the plugin's skills, not an addition to `skills/`); otherwise plugin.json wins and the entry's
// lists are added to it.
import * as v from "valibot";
import { ManifestSchema, type Manifest } from "./manifest.ts";

const COMPONENTS = ["commands", "skills", "agents", "hooks", "mcpServers", "lspServers"] as const;
type Component = (typeof COMPONENTS)[number];

export type EntryComponents = Pick<Manifest, Component> & { strict?: boolean };

/** The entry's component fields and `strict`, or one line saying which is of the wrong shape. */
export function entryComponents(entry: Record<string, unknown>): EntryComponents | string {
  const picked: Record<string, unknown> = {};
  for (const key of COMPONENTS) if (entry[key] !== undefined) picked[key] = entry[key];
  const parsed = v.safeParse(ManifestSchema, picked);
  if (!parsed.success) return `"${v.getDotPath(parsed.issues[0]) ?? "entry"}": ${parsed.issues[0].message}`;
  const strict = entry.strict;
  if (strict !== undefined && typeof strict !== "boolean") return `"strict": expected true or false, got ${JSON.stringify(strict)}`;
  const out: EntryComponents = {};
  for (const key of COMPONENTS) if (parsed.output[key] !== undefined) (out as Record<string, unknown>)[key] = parsed.output[key];
  return strict === undefined ? out : { ...out, strict };
}

/** The manifest the plugin is read with, and whether its skills are the entry's alone (no `skills/` folder). */
export function withEntry(manifest: Manifest, entry: EntryComponents | undefined): { manifest: Manifest; ownSkillsOnly: boolean } {
  if (!entry) return { manifest, ownSkillsOnly: false };
  const { strict, ...lists } = entry;
  if (strict === false) {
    const base: Manifest = { ...manifest };
    for (const key of COMPONENTS) delete base[key];
    return { manifest: { ...base, ...lists }, ownSkillsOnly: lists.skills !== undefined };
  }
  const merged: Manifest = { ...manifest };
  for (const key of COMPONENTS) {
    const extra = lists[key];
    if (extra === undefined) continue;
    (merged as Record<string, unknown>)[key] = mergeField(manifest[key], extra);
  }
  return { manifest: merged, ownSkillsOnly: false };
}

type Value = Manifest[Component];

/** Two path lists are joined; an inline configuration takes the other's servers or hooks under its own. */
function mergeField(own: Value, extra: NonNullable<Value>): Value {
  if (own === undefined) return extra;
  const isList = (x: Value): x is string | string[] => typeof x === "string" || Array.isArray(x);
  if (isList(own) && isList(extra)) return [...new Set([...[own].flat(), ...[extra].flat()])];
  if (!isList(own) && !isList(extra)) return { ...extra, ...own };
  return own;
}
