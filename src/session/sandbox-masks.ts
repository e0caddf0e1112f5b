// What a read-only sandboxed command cannot read: the credentials denied in every mode, rein's own
// secrets in its folders, and the environment files at the workspace's top. Only what exists (a
// mount needs a target), each at its real path (where a symlink to it leads inside the sandbox too).
import { readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { deniedEntries, sensitivePath } from "../permission/sensitive.ts";

export type MaskContext = { home: string; reinDirs: readonly string[]; workspace: string };

export function sandboxMasks(ctx: MaskContext): string[] {
  const inFolders = [...ctx.reinDirs, ctx.workspace].flatMap((dir) =>
    entriesOf(dir)
      .map((name) => join(dir, name))
      .filter((path) => sensitivePath(path, ctx.home, ctx.reinDirs) !== undefined),
  );
  const all = [...new Set([...deniedEntries(ctx.home), ...inFolders].flatMap(realOrNone))].sort();
  // A path inside a folder masked already is hidden with it (and a mount there would find nothing to cover).
  return all.filter((path) => !all.some((other) => other !== path && path.startsWith(`${other}/`)));
}

function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function realOrNone(path: string): string[] {
  try {
    return [realpathSync(path)];
  } catch {
    return [];
  }
}
