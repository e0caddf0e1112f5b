// Claude Code's model names: `sonnet`, `opus`, `haiku` and `fable` are the newest model of that
// family the provider in use lists (Anthropic's when it lists none), and `inherit` is the model the
// session already runs. Users write them in flags, `/model`, config files, agent and command front
// matter and the task tool's `model`; the API is only ever sent the model they stand for.
import { DEFAULT_MODEL, type ModelRow } from "./models.ts";

export const MODEL_ALIASES = ["sonnet", "opus", "haiku", "fable"] as const;
export const INHERIT = "inherit";

export type AliasTable = ReadonlyMap<string, { models: readonly ModelRow[] }>;

export function isAlias(name: string): boolean {
  return (MODEL_ALIASES as readonly string[]).includes(name.trim().toLowerCase());
}

/**
 * The model `name` stands for: an alias resolved for the provider of `current` (the session's
 * model), `inherit` as `current`, anything else as written.
 */
export function resolveAlias(name: string, current: string | undefined, table: AliasTable): string {
  const word = name.trim().toLowerCase();
  if (word === INHERIT) return current && current.toLowerCase() !== INHERIT ? resolveAlias(current, undefined, table) : DEFAULT_MODEL;
  if (!isAlias(word)) return name;
  const slash = current?.indexOf("/") ?? -1;
  const provider = current && slash > 0 ? current.slice(0, slash) : "anthropic";
  const own = newestOf(word, table.get(provider)?.models ?? []);
  if (own) return provider === "anthropic" ? own : `${provider}/${own}`;
  return newestOf(word, table.get("anthropic")?.models ?? []) ?? name;
}

/**
 * Whether `name` is an alias of the family `current` is of (`opus` with `claude-opus-4-5`): a
 * subagent's model written so runs on its parent's model, as Claude Code 2.1.332 runs it (an alias
 * of another family is that family's newest). Recorded: test/fixtures/claude-code/agent-fields (models).
 */
export function sameFamily(name: string, current: string | undefined): boolean {
  if (!current || !isAlias(name)) return false;
  const id = current.slice(current.lastIndexOf("/") + 1).toLowerCase();
  return id.split(/[-._]/).includes(name.trim().toLowerCase());
}

/** The family's newest row: the highest version numbers after the family's name (`claude-opus-5-5` over `claude-opus-5`). */
function newestOf(family: string, rows: readonly ModelRow[]): string | undefined {
  const members = rows.filter((row) => row.id.toLowerCase().split(/[-/._]/).includes(family));
  return members.map((row) => ({ id: row.id, version: versionOf(row.id, family) })).sort((a, b) => compare(b.version, a.version))[0]?.id;
}

function versionOf(id: string, family: string): number[] {
  const at = id.toLowerCase().lastIndexOf(family);
  const after = id.slice(at + family.length).match(/\d+/g) ?? [];
  // `claude-3-5-sonnet`: the version comes before the family's name. A date (8 digits) is not a version.
  const numbers = (after.length ? after : id.slice(0, at).match(/\d+/g) ?? []).filter((n) => n.length < 8);
  return numbers.map(Number);
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return b.length - a.length;
}
