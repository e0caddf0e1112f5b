// Brings a plugin's source where it can be read: a folder as it is, a git repository cloned into
// rein's temp folder for plugins (removed by `done`).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { pathKind } from "../skills/path-kind.ts";
import { gitClone } from "./git.ts";
import type { PluginSource, PluginStore } from "./store.ts";

/** `name`: what a plugin without a manifest is called (its folder's or repository's name). */
export type Staged = { root: string; name: string; commit?: string; done: () => void };

export function stageSource(source: PluginSource, store: PluginStore): Staged | { error: string } {
  if (source.kind === "path") {
    const kind = pathKind(source.path);
    if (kind !== "dir") return { error: `${source.path}: ${typeof kind === "object" && kind.error === "ENOENT" ? "no such folder" : "not a folder"} (give a plugin's folder, a git URL or NAME@MARKETPLACE)` };
    return { root: source.path, name: basename(source.path), done: () => {} };
  }
  mkdirSync(store.tmp, { recursive: true });
  const dir = mkdtempSync(join(store.tmp, "clone-"));
  const done = () => rmSync(dir, { recursive: true, force: true });
  const cloned = gitClone(source.url, join(dir, "repo"), source.ref);
  if ("error" in cloned) {
    done();
    return cloned;
  }
  const root = resolve(dir, "repo", source.subdir ?? ".");
  if (relative(join(dir, "repo"), root).startsWith("..") || pathKind(root) !== "dir") {
    done();
    return { error: `${source.url}: no folder ${source.subdir} in the repository` };
  }
  const name = basename(source.subdir ?? source.url.replace(/\/+$/, "")).replace(/\.git$/, "");
  return { root, name, commit: cloned.commit, done };
}
