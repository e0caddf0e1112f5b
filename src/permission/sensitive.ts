// Paths no rule or mode may open up (the credential set of credential-set.ts: credentials, other
// agents' logins, histories, processes' environments and memory, rein's own secrets) and paths that
// always ask (`.env` files). Checked before any rule, on the path as resolveForCheck returns it (absolute,
// symlinks resolved); `home` and `reinDirs` must be resolved the same way, or a symlinked home
// would hide ~/.ssh. Matching is case-sensitive.
import { basename, normalize } from "node:path";
import { envFile } from "../sdk/env-file.ts";
import { CORE_DUMP, HOME_DENIED, PATTERN_DENIED, REIN_SECRET, SYSTEM_DENIED } from "./credential-set.ts";

export { AMBIGUOUS_NAMES, HOME_DENIED, PATTERN_DENIED, SYSTEM_DENIED } from "./credential-set.ts";

export type SensitiveMatch = { action: "deny" | "ask"; reason: string };

// Inside a repository's git folder: its config can run programs (core.fsmonitor, core.pager,
// aliases) and often holds a checkout token; hooks run on the next commit.
const GIT_CONFIG = /\/\.git(?:\/(?:modules|worktrees)\/[^/]+)*\/(?:config|config\.worktree)$/;
const GIT_HOOKS = /\/\.git(?:\/(?:modules|worktrees)\/[^/]+)*\/hooks(?:\/|$)/;

/**
 * Whether a path is sensitive: "deny" whatever the mode and rules, "ask" for `.env` files
 * (`.env`, `.env.local`, `prod.env`; not `.env.example`, `.env.sample`, `.env.template`).
 * `reinDirs` are rein's config and data folders.
 */
export function sensitivePath(
  absolutePath: string,
  home: string,
  reinDirs: readonly string[] = [],
  permission: "read" | "edit" = "read",
): SensitiveMatch | undefined {
  const path = normalize(absolutePath);
  for (const [entry, inside, what] of homeEntries(home)) {
    if (path === entry || path.startsWith(inside)) return deny(what);
  }
  // Another user's home holds the same kinds of secrets (`~root/.ssh`, /home/bob/.aws).
  const other = /^(?:\/root|\/home\/[^/]+|\/Users\/[^/]+|\/var\/root)\/(.+)$/.exec(path)?.[1];
  if (other !== undefined) {
    for (const [rel, inside, what] of HOME_RELATIVE) if (other === rel || other.startsWith(inside)) return deny(what);
  }
  for (const [entry, inside, what] of SYSTEM_ENTRIES) {
    if (path === entry || path.startsWith(inside)) return deny(what);
  }
  if (path.startsWith("/proc/")) {
    for (const [pattern, what] of PATTERN_DENIED) if (matchesPattern(path, pattern)) return deny(what);
  }
  if (CORE_DUMP.test(basename(path))) return deny("a core dump, which holds a process's memory");
  for (const dir of reinDirs) {
    const inside = insideOf(dir);
    if (path.startsWith(inside) && REIN_SECRET.test(path.slice(inside.length).split("/")[0]!)) {
      return deny("rein's own secrets and settings");
    }
  }
  if (envFile(basename(path))) return { action: "ask", reason: "an environment file, which often holds secrets" };
  return gitInternal(path, permission);
}

export { envFile };

function gitInternal(path: string, permission: "read" | "edit"): SensitiveMatch | undefined {
  if (GIT_CONFIG.test(path)) {
    return { action: "ask", reason: permission === "edit" ? "a git config, which can make git run programs" : "a git config, which can hold a checkout token" };
  }
  if (permission !== "edit") return undefined;
  if (/\/(?:\.gitconfig|\.config\/git\/config)$/.test(path)) return { action: "ask", reason: "a git config, which can make git run programs" };
  if (GIT_HOOKS.test(path)) return { action: "ask", reason: "a git hook, which runs on the next commit" };
  if (/\/\.git$/.test(path)) return { action: "ask", reason: "a repository's git folder, whose config and hooks run programs" };
  return undefined;
}

/** Whether `path` is `pattern` (each `*` one name of any spelling), or inside it. */
export function matchesPattern(path: string, pattern: string): boolean {
  const parts = path.split("/").filter(Boolean);
  const want = pattern.split("/").filter(Boolean);
  return parts.length >= want.length && want.every((name, i) => name === "*" || name === parts[i]);
}

/** An entry, the prefix of what lies inside it (the entry and a slash), and what it holds. */
type Entry = readonly [entry: string, inside: string, what: string];
const entriesByHome = new Map<string, readonly Entry[]>();
const withInside = ([entry, what]: readonly [string, string]): Entry => [entry, `${entry}/`, what];
// Loops, not map: see tool-names.ts (every start makes these).
const entries = (list: readonly (readonly [string, string])[]): Entry[] => {
  const out: Entry[] = [];
  for (const item of list) out.push(withInside(item));
  return out;
};
const HOME_RELATIVE: readonly Entry[] = entries(HOME_DENIED);
const SYSTEM_ENTRIES: readonly Entry[] = entries(SYSTEM_DENIED);

/**
 * HOME_DENIED under `home`, made once per home, each with its prefix made ahead: this runs for
 * every path a walk meets (the read-only sandbox's search of the workspace for .env files), and
 * making ~80 prefixes for each path was most of its time.
 */
function homeEntries(home: string): readonly Entry[] {
  let entries = entriesByHome.get(home);
  if (!entries) {
    const homeDir = normalize(home).replace(/(.)\/$/, "$1");
    entries = HOME_DENIED.map(([rel, what]) => withInside([`${homeDir === "/" ? "" : homeDir}/${rel}`, what]));
    if (entriesByHome.size > 16) entriesByHome.clear();
    entriesByHome.set(home, entries);
  }
  return entries;
}

const insides = new Map<string, string>();

/** The prefix of what lies inside a folder (normalized, with one slash at its end), remembered per spelling. */
function insideOf(dir: string): string {
  let inside = insides.get(dir);
  if (inside === undefined) {
    inside = `${normalize(dir).replace(/(.)\/$/, "$1")}/`;
    if (insides.size > 64) insides.clear();
    insides.set(dir, inside);
  }
  return inside;
}

function within(path: string, entry: string): boolean {
  return path === entry || path.startsWith(`${entry}/`);
}

function deny(what: string): SensitiveMatch {
  return { action: "deny", reason: `${what}, protected in every permission mode` };
}

/**
 * For a folder read as a whole (grep -r, a search, a listing): the protected entries inside it.
 * Reading such a folder asks, so a recursive search of ~ cannot sweep up ~/.ssh unseen.
 */
export function sensitiveWithin(absoluteDir: string, home: string): string[] {
  const dir = normalize(absoluteDir).replace(/(.)\/$/, "$1");
  const fixed = deniedEntries(home).filter((entry) => entry !== dir && within(entry, dir === "/" ? "" : dir));
  // `/proc` and `/proc/self` hold environ and mem files.
  const parts = dir.split("/").filter(Boolean);
  const patterns = PATTERN_DENIED.map(([pattern]) => pattern).filter((pattern) => {
    const want = pattern.split("/").filter(Boolean);
    return parts.length < want.length && parts.every((name, i) => want[i] === "*" || want[i] === name);
  });
  return [...fixed, ...patterns];
}

/**
 * `sensitivePath(path, home, reinDirs) !== undefined` for the many paths of a search below one
 * folder (the sandbox's search of the workspace for .env files): what cannot hold anything below
 * `absoluteDir` (the entries under a home, the system's, /proc, rein's folders) is set aside once,
 * so that a path there is looked at by its name alone (a core dump, an environment file) unless it
 * lies in a git folder or is not in normal form. Where one of them can, every path goes through
 * sensitivePath. The answers are sensitivePath's (test/unit/permission/sensitive-below.test.ts).
 */
export function sensitiveBelow(absoluteDir: string, home: string, reinDirs: readonly string[] = []): (path: string) => boolean {
  const full = (path: string) => sensitivePath(path, home, reinDirs) !== undefined;
  const dir = normalize(absoluteDir).replace(/(.)\/$/, "$1");
  // Every home lies below these: any of them may hold another user's ~/.ssh.
  if (!dir.startsWith("/") || dir === "/" || dir === "/home" || dir === "/Users" || dir === "/var") return full;
  const inside = `${dir}/`;
  const touches = (entry: string) => entry === dir || entry.startsWith(inside) || inside.startsWith(`${entry}/`);
  // The home `dir` lies in, if any: its entries are what the other-home rule matches below `dir`.
  const homeOf = /^(?:\/root|\/home\/[^/]+|\/Users\/[^/]+|\/var\/root)(?=\/|$)/.exec(dir)?.[0];
  const entries = [
    ...homeEntries(home).map(([entry]) => entry),
    ...(homeOf ? HOME_RELATIVE.map(([rel]) => `${homeOf}/${rel}`) : []),
    ...SYSTEM_ENTRIES.map(([entry]) => entry),
    "/proc",
    ...reinDirs.map((d) => insideOf(d).slice(0, -1)),
  ];
  if (entries.some(touches)) return full;
  return (path) => {
    if (!path.startsWith(inside) || ABNORMAL.test(path.slice(dir.length)) || path.includes("/.git")) return full(path);
    const name = path.slice(path.lastIndexOf("/") + 1);
    return (CORE_DUMP.test(name) || envFile(name)) && full(path);
  };
}

/** A path that normalize would change: an empty, `.` or `..` segment, or a slash at the end. */
const ABNORMAL = /\/\/|\/\.\.?(?:\/|$)|\/$/;

/** The fixed entries denied in every mode (under `home` and the system's), whether or not they exist. */
export function deniedEntries(home: string): string[] {
  const homeDir = normalize(home).replace(/(.)\/$/, "$1");
  return [...HOME_DENIED.map(([rel]) => `${homeDir === "/" ? "" : homeDir}/${rel}`), ...SYSTEM_DENIED.map(([entry]) => entry)];
}
