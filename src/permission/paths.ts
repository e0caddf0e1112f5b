// The path a permission check looks at: absolute, `~` and `$HOME` expanded, symlinks resolved as
// the kernel would, so a link in the workspace to ~/.ssh is checked as ~/.ssh.
import { lstatSync, readlinkSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

// Linux gives up after 40 links in one lookup (ELOOP); so do we, keeping the rest unresolved.
const MAX_LINKS = 40;

/**
 * `path` made absolute against `cwd` (after expanding `~`, `~user`, `$HOME`, `${HOME}`), with every
 * existing component's symlink followed. What does not exist yet (a file about to be written) is
 * appended to its resolved parent. `..` is taken after the symlink before it, as the kernel does:
 * `link/../x` is beside the link's target, not beside the link. `cwd` need not be resolved.
 */
export function resolveForCheck(path: string, cwd: string, home: string): string {
  const expanded = expandHome(path, home);
  // Not join(): it would take `..` lexically before the links are seen.
  return followLinks(isAbsolute(expanded) ? expanded : `${cwd}/${expanded}`);
}

export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}

function expandHome(path: string, home: string): string {
  const variable = /^(\$HOME|\$\{HOME\})(?=\/|$)/.exec(path);
  if (variable) return home + path.slice(variable[0].length);
  if (path === "~" || path.startsWith("~/")) return home + path.slice(1);
  // `~user`: another user's home, guessed beside ours (root's is /root). The guess only needs to
  // land outside the workspace: a literal `~user` folder under cwd would wrongly pass as inside.
  const user = /^~([a-z_][\w.-]*)(?=\/|$)/i.exec(path);
  if (user) return (user[1] === "root" ? "/root" : join(dirname(home), user[1]!)) + path.slice(user[0].length);
  return path;
}

function followLinks(absolute: string): string {
  const pending = absolute.split("/").filter((part) => part !== "" && part !== ".");
  let current = "/";
  let links = 0;
  while (pending.length > 0) {
    const next = join(current, pending.shift()!);
    const stat = lstatOrUndefined(next);
    if (!stat) return resolve(next, ...pending);
    if (!stat.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) return resolve(next, ...pending);
    const target = readlinkSync(next);
    pending.unshift(...target.split("/").filter((part) => part !== "" && part !== "."));
    if (isAbsolute(target)) current = "/";
  }
  return current;
}

/** lstat, or undefined where there is no entry or it cannot be read. */
export function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
