// rein plugin marketplace add | list | remove: the marketplaces rein knows, by name. A folder is
// read where it is; a git repository is cloned into rein's data folder (again on update).
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { stageSource } from "./fetch-source.ts";
import { isGitUrl } from "./git.ts";
import { readMarketplace, type Marketplace } from "./marketplace.ts";
import { pluginStore, readMarketplaces, safeName, writeMarketplaces, type KnownMarketplace, type PluginSource } from "./store.ts";

type Failed = { error: string };

export function addMarketplace(spec: string, where: { dataDir: string; cwd: string }): { known: KnownMarketplace; listed: Marketplace } | Failed {
  const source: PluginSource = isGitUrl(spec) ? { kind: "git", url: spec } : { kind: "path", path: resolve(where.cwd, spec) };
  return fetchMarketplace(source, where.dataDir);
}

/** A git marketplace cloned again (a folder is read where it is): its current plugin list. */
export function refreshMarketplace(known: KnownMarketplace, dataDir: string): { known: KnownMarketplace; listed: Marketplace } | Failed {
  return fetchMarketplace(known.source, dataDir, known.name);
}

function fetchMarketplace(source: PluginSource, dataDir: string, expected?: string): { known: KnownMarketplace; listed: Marketplace } | Failed {
  const store = pluginStore(dataDir);
  const all = readMarketplaces(store);
  if (typeof all === "string") return { error: all };
  const staged = stageSource(source, store);
  if ("error" in staged) return staged;
  const listed = readMarketplace(staged.root);
  if (typeof listed === "string" || (expected && listed.name !== expected)) {
    staged.done();
    return { error: typeof listed === "string" ? listed : `the marketplace at ${describe(source)} is now named "${listed.name}", not "${expected}"; remove it and add it again` };
  }
  let root = staged.root;
  if (source.kind === "git") {
    root = join(store.marketplaces, safeName(listed.name));
    rmSync(root, { recursive: true, force: true });
    mkdirSync(store.marketplaces, { recursive: true });
    renameSync(staged.root, root);
    staged.done();
  }
  const known: KnownMarketplace = { name: listed.name, source, root, addedAt: all[listed.name]?.addedAt ?? new Date().toISOString() };
  writeMarketplaces(store, { ...all, [listed.name]: known });
  return { known, listed };
}

export function listMarketplaces(dataDir: string): { known: KnownMarketplace; listed: Marketplace | string }[] | Failed {
  const all = readMarketplaces(pluginStore(dataDir));
  if (typeof all === "string") return { error: all };
  return Object.values(all).map((known) => ({ known, listed: existsSync(known.root) ? readMarketplace(known.root) : `${known.root} is gone; run rein plugin marketplace add again` }));
}

export function removeMarketplace(name: string, dataDir: string): KnownMarketplace | Failed {
  const store = pluginStore(dataDir);
  const all = readMarketplaces(store);
  if (typeof all === "string") return { error: all };
  const known = all[name];
  if (!known) return { error: `no marketplace named "${name}" (known: ${Object.keys(all).join(", ") || "none"})` };
  const { [name]: _gone, ...rest } = all;
  writeMarketplaces(store, rest);
  if (known.source.kind === "git") rmSync(known.root, { recursive: true, force: true });
  return known;
}

export function describe(source: PluginSource): string {
  return source.kind === "path" ? source.path : `${source.url}${source.ref ? `#${source.ref}` : ""}${source.subdir ? ` (${source.subdir})` : ""}`;
}
