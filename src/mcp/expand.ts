// `${VAR}` and `${VAR:-default}` in an entry's command, args, env, url and headers, as Claude Code
// expands them. A variable that is unset and has no default makes the entry unusable (rather than
// starting a program with a literal `${VAR}` in its arguments).
import type { ServerEntry } from "./config.ts";

type Env = Readonly<Record<string, string | undefined>>;

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `value` with its references replaced, or the first variable that is not set. */
export function expandText(value: string, env: Env): { value: string } | { unset: string } {
  let unset: string | undefined;
  const expanded = value.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== "") return found;
    if (fallback !== undefined) return fallback;
    unset ??= name;
    return whole;
  });
  return unset ? { unset } : { value: expanded };
}

export function expandEntry(entry: ServerEntry, env: Env): ServerEntry | { problem: string } {
  let problem: string | undefined;
  const one = (value: string, where: string): string => {
    const result = expandText(value, env);
    if ("value" in result) return result.value;
    problem ??= `\${${result.unset}} in its ${where} is not set: set ${result.unset}, or write \${${result.unset}:-default}`;
    return value;
  };
  const record = (values: Record<string, string> | undefined, where: string) =>
    values && Object.fromEntries(Object.entries(values).map(([k, val]) => [k, one(val, `${where} ${k}`)]));
  const out: ServerEntry =
    "url" in entry
      ? { ...entry, url: one(entry.url, "url"), ...(entry.headers ? { headers: record(entry.headers, "header")! } : {}) }
      : {
          ...entry,
          command: one(entry.command, "command"),
          ...(entry.args ? { args: entry.args.map((a) => one(a, "args")) } : {}),
          ...(entry.env ? { env: record(entry.env, "env")! } : {}),
          ...(entry.cwd ? { cwd: one(entry.cwd, "cwd") } : {}),
        };
  return problem ? { problem } : out;
}
