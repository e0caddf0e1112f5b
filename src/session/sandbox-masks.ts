// What a sandboxed command cannot read: the credentials denied in every mode and rein's own secrets
// in its folders, for every sandboxed command (auto mode's included: it has no network, so a key is
// of no use inside but to print it for the model); for a read-only one also the environment files
// anywhere in the workspace (a `grep -r` of the workspace must not sweep up packages/api/.env).
// Only what exists (a mount needs a target), each at its real path (where a symlink to it leads
// inside the sandbox too).
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { deniedEntries, sensitiveBelow, sensitivePath } from "../permission/sensitive.ts";

export type MaskContext = { home: string; reinDirs: readonly string[]; workspace: string };

/** Folders never searched for environment files: too large, and no project keeps its .env there. */
const UNSEARCHED = new Set([".git", "node_modules"]);
/** At most this many entries are looked at per search; a larger workspace keeps its deeper .env files unmasked. */
const SEARCH_BUDGET = 20_000;
/** A search is reused this long, unless a call that could write ran meanwhile. */
const SEARCH_TTL_MS = 30_000;

/**
 * The masks for each call, from a session's folders. A read-only call's are kept until a call that
 * could write runs (one not read-only), SEARCH_TTL_MS pass, or one of rein's folders changes (rein
 * wrote a secret there): a read-only call writes nothing, so it cannot have made a new .env or
 * credential. A call that may write gets the credentials alone, looked up afresh (no workspace
 * search: the project's own commands, `npm test`, may need its .env, which asks rather than denies).
 */
export function maskSource(ctx: MaskContext, now: () => number = Date.now): (readOnly: boolean) => string[] {
  let kept: { at: number; reinDirs: string; masks: string[] } | undefined;
  return (readOnly) => {
    if (!readOnly) {
      kept = undefined;
      return sandboxMasks(ctx, []);
    }
    const reinDirs = ctx.reinDirs.map(mtimeOf).join(",");
    if (!kept || now() - kept.at > SEARCH_TTL_MS || kept.reinDirs !== reinDirs) kept = { at: now(), reinDirs, masks: sandboxMasks(ctx) };
    return kept.masks;
  };
}

export function sandboxMasks(ctx: MaskContext, workspaceFiles: readonly string[] = envFilesBelow(ctx)): string[] {
  const inReinDirs = ctx.reinDirs.flatMap((dir) => entriesOf(dir).map((name) => join(dir, name)).filter((path) => isSensitive(path, ctx)));
  const all = [...new Set([...deniedEntries(ctx.home), ...inReinDirs, ...workspaceFiles].flatMap(realOrNone))].sort();
  // A path inside a folder masked already is hidden with it (and a mount there would find nothing to cover).
  return all.filter((path) => !all.some((other) => other !== path && path.startsWith(`${other}/`)));
}

/** The workspace's environment files (and other sensitive entries), breadth first within the budget. */
function envFilesBelow(ctx: MaskContext): string[] {
  const found: string[] = [];
  const sensitive = sensitiveBelow(ctx.workspace, ctx.home, ctx.reinDirs);
  const queue = [ctx.workspace];
  let seen = 0;
  for (let i = 0; i < queue.length && seen < SEARCH_BUDGET; i++) {
    for (const entry of direntsOf(queue[i]!)) {
      seen++;
      const path = join(queue[i]!, entry.name);
      if (entry.isDirectory() && !UNSEARCHED.has(entry.name)) queue.push(path);
      else if (sensitive(path)) found.push(path);
    }
  }
  return found;
}

function isSensitive(path: string, ctx: MaskContext): boolean {
  return sensitivePath(path, ctx.home, ctx.reinDirs) !== undefined;
}

function entriesOf(dir: string): string[] {
  return direntsOf(dir).map((entry) => entry.name);
}

function direntsOf(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function realOrNone(path: string): string[] {
  try {
    return [realpathSync(path)];
  } catch {
    return [];
  }
}
