// For a recursive read of a folder: the first symlink inside it that leads out of the workspace or to
// a sensitive path. The walk is bounded; `complete` says whether it saw the whole tree.
import { readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { isInside, lstatOrUndefined, resolveForCheck } from "./paths.ts";
import { envFile, sensitivePath } from "./sensitive.ts";

const MAX_ENTRIES = 10_000;
// Past that, the walk goes on looking at names alone for environment files, which a read of the
// tree would sweep up: a folder larger still asks for a read of its contents (treeRisk).
const MAX_ENV_ENTRIES = 250_000;
// git's own folder holds no links a search follows into. node_modules is the package manager's:
// its links (workspaces, pnpm's store, `file:` dependencies) lead out by design, and walking it
// would cost more than the whole analysis.
const SKIP = new Set([".git", "node_modules"]);
// Links into the system's program folders (a virtualenv's python) lead nowhere private.
const SYSTEM = /^\/(?:usr|bin|sbin|lib|lib32|lib64|nix\/store|System|opt\/homebrew\/Cellar)(?:\/|$)/;

/** The first symlink leading out, and the first `.env`-family file met on the way (a read of the tree reads it). */
/** `visibleEnv`: the first one no dot folder or dot name hides (what rg reads without --hidden). */
/** `complete`: every entry was looked at for links; `envComplete`: for environment files. */
export type LinkScan = { link?: { path: string; target: string }; env?: string; visibleEnv?: string; complete: boolean; envComplete: boolean };

/** `env`: the caller reads the files (a search of contents), so environment files are looked for past the link walk. */
export function linkLeaving(dir: string, workspace: string, home: string, reinDirs: readonly string[], env = true): LinkScan {
  const budget = env ? MAX_ENV_ENTRIES : MAX_ENTRIES;
  const stat = lstatOrUndefined(dir);
  if (!stat?.isDirectory()) return { complete: true, envComplete: true };
  const pending = [dir];
  let seen = 0;
  let envPath: string | undefined;
  let link: LinkScan["link"];
  let visibleEnv: string | undefined;
  const found = (complete: boolean, envComplete: boolean): LinkScan => ({ ...(link ? { link } : {}), ...(envPath ? { env: envPath } : {}), ...(visibleEnv ? { visibleEnv } : {}), complete, envComplete });
  // Both are looked for: a reader that does not follow links still reads the .env beside one.
  while (pending.length > 0 && !(link && visibleEnv)) {
    const current = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > budget) return found(link !== undefined, false);
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name)) pending.push(path);
      } else if (entry.isSymbolicLink()) {
        if (link || seen > MAX_ENTRIES) continue;
        const target = resolveForCheck(path, "/", home);
        const sensitive = sensitivePath(target, home, reinDirs)?.action === "deny";
        if (sensitive || (!isInside(target, workspace) && !SYSTEM.test(target))) link = { path, target };
      } else if (entry.isFile() && envFile(entry.name)) {
        envPath ??= path;
        if (visibleEnv === undefined && !path.slice(dir.length).split("/").some((part) => part.startsWith("."))) visibleEnv = path;
      }
    }
  }
  return found(seen <= MAX_ENTRIES || link !== undefined, true);
}
