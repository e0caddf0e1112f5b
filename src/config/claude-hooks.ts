// Claude Code's `hooks` value as rein reads it from Claude Code's files (settings files, agent
// files, plugins' hooks.json), checked group by group: what is wrong costs that group and a warning,
// never the rest; a key rein does not read is left out with a note. In config/ so that a plugin's
// hook files can be checked once, when the installed plugins' index is written (plugins/sources.ts),
// and hooks/sources.ts reads them as they were checked then.
import * as v from "valibot";
import { HOOK_EVENTS, hookGroupSchema, hookKeys, type HookEvent, type HooksConfig } from "./hooks-schema.ts";

export function claudeHooks(hooks: Record<string, unknown>, file: string, warnings: string[], notes: string[]): HooksConfig {
  const out: HooksConfig = {};
  for (const [event, groups] of Object.entries(hooks)) {
    // Claude Code has more events than rein runs: those are not an error in its files.
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) continue;
    if (!Array.isArray(groups)) {
      warnings.push(`${file}: "hooks.${event}" is not a list of matcher groups; skipped`);
      continue;
    }
    const kept = groups.flatMap((group, g) => {
      const parsed = v.safeParse(hookGroupSchema(), withoutUnknownKeys(group, `${file}: "hooks.${event}[${g}]`, notes));
      if (parsed.success) return [parsed.output];
      const issue = parsed.issues[0];
      const path = v.getDotPath(issue);
      warnings.push(`${file}: "hooks.${event}[${g}]${path ? `.${path}` : ""}": ${issue.message}; that group was skipped`);
      return [];
    });
    out[event as HookEvent] = kept;
  }
  return out;
}

/**
 * Claude Code's files carry keys rein does not read (newer ones, internal ones: `once`,
 * `rewakeMessage`...): each is left out with a note, never the group it is in.
 */
function withoutUnknownKeys(group: unknown, where: string, notes: string[]): unknown {
  if (!isRecord(group)) return group;
  const kept = pick(group, hookKeys().group!, where, notes);
  if (!Array.isArray(kept.hooks)) return kept;
  const hooks = kept.hooks.map((handler, h) => {
    if (!isRecord(handler) || typeof handler.type !== "string" || !hookKeys()[handler.type] || handler.type === "group") return handler;
    return pick(handler, hookKeys()[handler.type]!, `${where}.hooks[${h}]`, notes);
  });
  return { ...kept, hooks };
}

function pick(object: Record<string, unknown>, keys: readonly string[], where: string, notes: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (keys.includes(key)) out[key] = value;
    else notes.push(`${where}": key "${key}" is not one rein reads; ignored`);
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
