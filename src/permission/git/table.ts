// git's options as data, in the notation the other option tables use: one string per class, each
// token an option with its spellings joined by `|`, `=` for a value (attached or the next word),
// `[=]` for an optional value that can only be attached. git's parse-options accepts a unique
// prefix of a long option (`--outp` is `--output`), so long options are looked up by prefix too.

export type GitClass = "harmless" | "read" | "write" | "runs";
type Arity = "none" | "required" | "optional";
export type GitOption = { cls: GitClass; arity: Arity };
export type GitTable = { options: ReadonlyMap<string, GitOption>; longs: readonly string[] };

export function gitTable(spec: Partial<Record<GitClass, string>>, ...bases: GitTable[]): GitTable {
  const options = new Map<string, GitOption>();
  for (const base of bases) for (const [name, option] of base.options) options.set(name, option);
  for (const cls of ["harmless", "read", "write", "runs"] as const) {
    for (const token of (spec[cls] ?? "").split(/\s+/).filter(Boolean)) {
      const arity: Arity = token.endsWith("[=]") ? "optional" : token.endsWith("=") ? "required" : "none";
      for (const name of token.replace(/\[?=\]?$/, "").split("|")) options.set(name, { cls, arity });
    }
  }
  return { options, longs: [...options.keys()].filter((name) => name.startsWith("--")) };
}

export type Parsed = {
  /** Options with their values, in order. */
  options: { name: string; option: GitOption; value?: string }[];
  operands: string[];
  /** Words after `--`: paths. */
  paths: string[];
  /** An option the table does not know (the command is then not read-only). */
  unknown?: string;
};

/** Reads `args` with git's rules: bundles (`-sb`), `-n5`, `--opt=v`, `--opt v`, prefixes, `--`. */
export function parseGit(args: readonly string[], table: GitTable): Parsed {
  const parsed: Parsed = { options: [], operands: [], paths: [] };
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--") {
      parsed.paths.push(...args.slice(i + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      parsed.operands.push(word);
      continue;
    }
    if (/^-\d+$/.test(word)) continue; // -5: --max-count=5, -U3 style counts
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      const spelled = eq > 0 ? word.slice(0, eq) : word;
      const found = lookupLong(table, spelled);
      if (!found) {
        parsed.unknown ??= word;
        continue;
      }
      const value = eq > 0 ? word.slice(eq + 1) : found.option.arity === "required" ? args[++i] : undefined;
      parsed.options.push({ name: found.name, option: found.option, ...(value !== undefined ? { value } : {}) });
      continue;
    }
    for (let j = 1; j < word.length; j++) {
      const name = `-${word[j]}`;
      const option = table.options.get(name);
      if (!option) {
        parsed.unknown ??= name;
        break;
      }
      const rest = word.slice(j + 1);
      if (option.arity === "none") {
        parsed.options.push({ name, option });
        continue;
      }
      const value = rest !== "" ? rest : option.arity === "required" ? args[++i] : undefined;
      parsed.options.push({ name, option, ...(value !== undefined ? { value } : {}) });
      break;
    }
  }
  return parsed;
}

// The exact spelling, else the one option a prefix names; a prefix shared by options of different
// classes takes the most dangerous of them.
function lookupLong(table: GitTable, spelled: string): { name: string; option: GitOption } | undefined {
  const exact = table.options.get(spelled);
  if (exact) return { name: spelled, option: exact };
  const negated = /^--no-(.+)$/.exec(spelled);
  if (negated && table.options.get(`--${negated[1]}`)?.cls === "harmless") return { name: spelled, option: { cls: "harmless", arity: "none" } };
  if (spelled.length < 4) return undefined;
  const candidates = table.longs.filter((long) => long.startsWith(spelled));
  if (candidates.length === 0) return undefined;
  const rank: Record<GitClass, number> = { harmless: 0, read: 1, write: 2, runs: 3 };
  const worst = candidates.map((name) => ({ name, option: table.options.get(name)! })).sort((a, b) => rank[b.option.cls] - rank[a.option.cls])[0]!;
  if (candidates.length > 1 && worst.option.cls === "harmless") return undefined; // ambiguous: git refuses it
  return worst;
}
