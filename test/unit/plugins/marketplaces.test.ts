// Marketplaces as rein knows them (marketplaces.ts, marketplace.ts, store.ts), on real folders and
// local git repositories with the system's git: added, listed, refreshed, removed; a marketplace
// file's faults and its entries' sources; rein's own records when they are broken.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entrySource, readMarketplace, type Marketplace } from "../../../src/plugins/marketplace.ts";
import { addMarketplace, describe as describeSource, listMarketplaces, refreshMarketplace, removeMarketplace } from "../../../src/plugins/marketplaces.ts";
import { pluginStore, readInstalled, readMarketplaces, safeName } from "../../../src/plugins/store.ts";
import { commitAll, gitRepo, pluginDirs, put, type PluginDirs } from "./plugin-kit.ts";

let d: PluginDirs;
let where: { dataDir: string; cwd: string };
beforeEach(() => {
  d = pluginDirs();
  where = { dataDir: d.dataDir, cwd: d.work };
});
afterEach(() => d.dir.remove());

/** A marketplace folder listing `plugins` (name -> source). */
function market(dir: string, name: string, plugins: Record<string, unknown> = { tool: "./tool" }): string {
  put(join(dir, ".claude-plugin", "marketplace.json"), JSON.stringify({ name, owner: { name: "tests" }, plugins: Object.entries(plugins).map(([n, source]) => ({ name: n, source })) }));
  return dir;
}

function ok<T>(value: T | { error: string }): T {
  if (value && typeof value === "object" && "error" in value) throw new Error((value as { error: string }).error);
  return value as T;
}

describe("rein plugin marketplace add | list | remove", () => {
  test("a folder is read where it is and recorded by its name; list shows its plugins", () => {
    const folder = market(join(d.dir.path, "shop"), "shop", { alpha: "./alpha", beta: "./beta" });
    const added = ok(addMarketplace("../shop", { ...where, cwd: join(d.dir.path, "work") }));
    expect(added.known).toMatchObject({ name: "shop", source: { kind: "path", path: folder }, root: folder });
    expect(added.listed.plugins.map((p) => p.name)).toEqual(["alpha", "beta"]);
    const listed = ok(listMarketplaces(d.dataDir));
    expect(listed.map((m) => [m.known.name, typeof m.listed === "string" ? m.listed : m.listed.plugins.length])).toEqual([["shop", 2]]);
    // the folder went away: listed with what to do
    rmSync(folder, { recursive: true });
    expect(ok(listMarketplaces(d.dataDir))[0]!.listed).toBe(`${folder} is gone; run rein plugin marketplace add again`);
  });

  test("a git repository is cloned into the data folder; a refresh clones it again and sees its new plugins", () => {
    const repo = join(d.dir.path, "remote");
    market(repo, "remote-shop");
    const url = gitRepo(repo);
    const added = ok(addMarketplace(url, where));
    const root = join(pluginStore(d.dataDir).marketplaces, "remote-shop");
    expect(added.known).toMatchObject({ name: "remote-shop", source: { kind: "git", url }, root });
    expect(existsSync(join(root, ".claude-plugin", "marketplace.json"))).toBe(true);
    market(repo, "remote-shop", { tool: "./tool", extra: "./extra" });
    commitAll(repo, "one more");
    const refreshed = ok(refreshMarketplace(added.known, d.dataDir));
    expect(refreshed.listed.plugins.map((p) => p.name)).toEqual(["tool", "extra"]);
    expect(refreshed.known.addedAt).toBe(added.known.addedAt);
    // renamed upstream: refused, naming both names
    market(repo, "renamed-shop");
    commitAll(repo, "rename");
    expect(refreshMarketplace(added.known, d.dataDir)).toEqual({ error: `the marketplace at ${url} is now named "renamed-shop", not "remote-shop"; remove it and add it again` });
    // removing a git marketplace removes its clone; a folder's is left alone
    expect(ok(removeMarketplace("remote-shop", d.dataDir)).name).toBe("remote-shop");
    expect(existsSync(root)).toBe(false);
    expect(ok(listMarketplaces(d.dataDir))).toEqual([]);
  });

  test("failures are one line: no marketplace file, no such folder, an unknown name to remove, a clone that fails", () => {
    const empty = join(d.dir.path, "empty");
    put(join(empty, "README.md"), "no marketplace here");
    expect(addMarketplace(empty, where)).toEqual({ error: `${empty} has no .claude-plugin/marketplace.json: it is not a marketplace` });
    const none = join(d.dir.path, "none");
    expect(addMarketplace(none, where)).toEqual({ error: `${none}: no such folder (give a plugin's folder, a git URL or NAME@MARKETPLACE)` });
    market(join(d.dir.path, "shop"), "shop");
    ok(addMarketplace(join(d.dir.path, "shop"), where));
    expect(removeMarketplace("nope", d.dataDir)).toEqual({ error: 'no marketplace named "nope" (known: shop)' });
    const failed = addMarketplace(`file://${join(d.dir.path, "no-repo")}`, where);
    expect((failed as { error: string }).error).toStartWith(`cannot clone file://${join(d.dir.path, "no-repo")}: `);
  });

  test("a damaged marketplaces.json is one line naming it, and nothing is written over it", () => {
    const file = join(pluginStore(d.dataDir).dir, "marketplaces.json");
    put(file, "{ not json");
    market(join(d.dir.path, "shop"), "shop");
    const expected = { error: `${file}: not valid JSON; fix or delete it (rein rewrites it on the next install)` };
    expect(addMarketplace(join(d.dir.path, "shop"), where)).toEqual(expected);
    expect(listMarketplaces(d.dataDir)).toEqual(expected);
    expect(removeMarketplace("shop", d.dataDir)).toEqual(expected);
    put(file, JSON.stringify({ marketplaces: { shop: { name: "shop" } } }));
    expect(readMarketplaces(pluginStore(d.dataDir))).toStartWith(`${file}: marketplaces.shop.source: `);
  });
});

describe("a marketplace file", () => {
  test("invalid JSON, a bad name and a missing owner are one line each, with the key", () => {
    const root = join(d.dir.path, "m");
    const file = join(root, ".claude-plugin", "marketplace.json");
    put(file, "{");
    expect(readMarketplace(root)).toStartWith(`${file}: not valid JSON (`);
    put(file, JSON.stringify({ name: "Bad Name", owner: { name: "x" }, plugins: [] }));
    expect(readMarketplace(root)).toBe(`${file}: "name": use kebab-case`);
    put(file, JSON.stringify({ name: "ok", plugins: [] }));
    expect(readMarketplace(root)).toStartWith(`${file}: "owner": `);
    put(file, JSON.stringify({ name: "ok", owner: { name: "x" }, plugins: [{ name: "p", source: "./p" }], extra: true }));
    expect(readMarketplace(root)).toMatchObject({ name: "ok", plugins: [{ name: "p", source: "./p" }], extra: true });
  });

  test("entry sources: ./ paths inside it (under pluginRoot when not ./), github, url, git-subdir with sha before ref; what it cannot fetch says so", () => {
    const m = (metadata?: Marketplace["metadata"]): Marketplace => ({ name: "m", owner: { name: "o" }, plugins: [], ...(metadata ? { metadata } : {}) });
    const root = "/shop";
    expect(entrySource({ name: "a", source: "./plugins/a" }, m(), root)).toEqual({ kind: "path", path: "/shop/plugins/a" });
    expect(entrySource({ name: "a", source: "a" }, m({ pluginRoot: "./plugins" }), root)).toEqual({ kind: "path", path: "/shop/plugins/a" });
    expect(entrySource({ name: "a", source: "./../elsewhere" }, m(), root)).toBe("plugin a: its source ./../elsewhere leads out of the marketplace");
    expect(entrySource({ name: "g", source: { source: "github", repo: "o/r", ref: "v1" } }, m(), root)).toEqual({ kind: "git", url: "https://github.com/o/r.git", ref: "v1" });
    expect(entrySource({ name: "u", source: { source: "url", url: "https://x/r.git", ref: "v1", sha: "abc" } }, m(), root)).toEqual({ kind: "git", url: "https://x/r.git", ref: "abc" });
    expect(entrySource({ name: "s", source: { source: "git-subdir", url: "https://x/r.git", path: "pkgs/s" } }, m(), root)).toEqual({ kind: "git", url: "https://x/r.git", subdir: "pkgs/s" });
    expect(entrySource({ name: "n", source: { source: "npm" } }, m(), root)).toBe('plugin n: rein cannot fetch a "npm" source (it fetches ./ folders and git: github, url, git-subdir)');
  });

  test("a source as rein tells it: the folder, or the URL with its ref and subfolder", () => {
    expect(describeSource({ kind: "path", path: "/a" })).toBe("/a");
    expect(describeSource({ kind: "git", url: "https://x/r.git", ref: "v2", subdir: "p" })).toBe("https://x/r.git#v2 (p)");
  });
});

describe("rein's records", () => {
  test("no installed.json is no plugins; one of the wrong shape names the key; ids become safe folder names", () => {
    const store = pluginStore(d.dataDir);
    expect(readInstalled(store)).toEqual({});
    put(join(store.dir, "installed.json"), JSON.stringify({ plugins: { kit: { id: "kit" } } }));
    expect(readInstalled(store)).toStartWith(`${join(store.dir, "installed.json")}: plugins.kit.name: `);
    writeFileSync(join(store.dir, "installed.json"), JSON.stringify({ plugins: {} }));
    expect(readInstalled(store)).toEqual({});
    expect(safeName("tool@my.shop/x")).toBe("tool-my-shop-x");
  });
});
