// A marketplace: a folder or git repository with `.claude-plugin/marketplace.json` listing plugins
// and where each comes from. `./` sources are relative to the marketplace's root; git sources
// (`github`, `url`, `git-subdir`) are cloned with the system's git.
import { join, relative, resolve } from "node:path";
import * as v from "valibot";
import type { PluginSource } from "./store.ts";
import { parseJson, readOptionalText } from "../config/optional-json.ts";

const GitFields = { ref: v.optional(v.string()), sha: v.optional(v.string()) };
const EntrySource = v.union([
  v.string(),
  v.looseObject({ source: v.literal("github"), repo: v.string(), ...GitFields }),
  v.looseObject({ source: v.literal("url"), url: v.string(), ...GitFields }),
  v.looseObject({ source: v.literal("git-subdir"), url: v.string(), path: v.string(), ...GitFields }),
  v.looseObject({ source: v.string() }),
]);
const Entry = v.looseObject({ name: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_-]*$/, "use kebab-case")), source: EntrySource, version: v.optional(v.string()), description: v.optional(v.string()) });
const MarketplaceSchema = v.looseObject({
  name: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_.-]*$/, "use kebab-case")),
  owner: v.looseObject({ name: v.string() }),
  plugins: v.array(Entry),
  metadata: v.optional(v.looseObject({ pluginRoot: v.optional(v.string()) })),
});
export type Marketplace = v.InferOutput<typeof MarketplaceSchema>;
export type MarketplaceEntry = v.InferOutput<typeof Entry>;

export function marketplaceFile(root: string): string {
  return join(root, ".claude-plugin", "marketplace.json");
}

/** The marketplace at `root`, or one line saying what is wrong. */
export function readMarketplace(root: string): Marketplace | string {
  const file = marketplaceFile(root);
  const read = readOptionalText(file);
  if (!read) return `${root} has no .claude-plugin/marketplace.json: it is not a marketplace`;
  if ("problem" in read) return `${file}: ${read.problem}`;
  const json = parseJson(read.text);
  if ("problem" in json) return `${file}: ${json.problem}`;
  const parsed = v.safeParse(MarketplaceSchema, json.value);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  return `${file}: ${v.getDotPath(issue) ? `"${v.getDotPath(issue)}": ` : ""}${issue.message}`;
}

/** Where a marketplace's plugin comes from, or why rein cannot fetch it. */
export function entrySource(entry: MarketplaceEntry, market: Marketplace, root: string): PluginSource | string {
  const source = entry.source;
  if (typeof source === "string") {
    const base = source.startsWith("./") ? root : resolve(root, market.metadata?.pluginRoot ?? ".");
    const path = resolve(base, source);
    if (relative(root, path).startsWith("..")) return `plugin ${entry.name}: its source ${source} leads out of the marketplace`;
    return { kind: "path", path };
  }
  const ref = typeof source.sha === "string" ? source.sha : typeof source.ref === "string" ? source.ref : undefined;
  const at = ref ? { ref } : {};
  if (source.source === "github" && typeof source.repo === "string") return { kind: "git", url: `https://github.com/${source.repo}.git`, ...at };
  if (source.source === "url" && typeof source.url === "string") return { kind: "git", url: source.url, ...at };
  if (source.source === "git-subdir" && typeof source.url === "string" && typeof source.path === "string") return { kind: "git", url: source.url, subdir: source.path, ...at };
  return `plugin ${entry.name}: rein cannot fetch a "${source.source}" source (it fetches ./ folders and git: github, url, git-subdir)`;
}
