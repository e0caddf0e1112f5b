// Credential paths named anywhere in a line whose commands cannot all be read statically: inside
// code given to an interpreter (`python -c "open('~/.ssh/id_rsa')"`), in data piped to xargs, in a
// variable used later, behind a glob or a variable (`~/.s?h`, `~/.$d/id_rsa`). The line is taken
// as text: quotes and escapes dropped, `$HOME` and `~` expanded, other variables standing for any
// text, and every path-like piece matched against the credential paths.
import { isAbsolute, join, normalize } from "node:path";
import { selectsEnv } from "./env-filters.ts";
import { globMatcher } from "./options/glob.ts";
import { AMBIGUOUS_NAMES as AMBIGUOUS, HOME_DENIED, PATTERN_DENIED, SYSTEM_DENIED } from "./sensitive.ts";

const SEPARATORS = /[\s;|&()<>=,+`{}@:!]+/;
// `$(...)` (one level of nesting), `$((...))`, `...` and `${...}`.
const SUBSTITUTION = /\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`|\$\{[^}]*\}/g;

export type Mention = { path: string; what: string };

/** The first piece of `line` that names an environment file (`.env`, `.env*`, `'.e'nv`), or undefined. */
export function envMention(line: string): string | undefined {
  return plainText(line, "~")
    .split(SEPARATORS)
    .find((token) => /env/i.test(token) && selectsEnv(token.replace(/\$\{?[A-Za-z_]\w*\}?/g, "*")));
}

/** The first credential path `line` names, taking relative pieces against each of `cwds`. */
export function credentialMention(line: string, home: string, cwds: readonly string[]): Mention | undefined {
  const text = plainText(line, home);
  const homeParts = split(home);
  // A substitution inside a path stands for any text too (`/proc/$(pgrep rein)/environ`).
  const substituted = text.replace(SUBSTITUTION, "*");
  const tokens = substituted === text ? text.split(SEPARATORS) : [...text.split(SEPARATORS), ...substituted.split(SEPARATORS)];
  for (const raw of tokens) {
    if (!/[./~$*?[]/.test(raw)) continue;
    const token = raw.replace(/\$\{?[A-Za-z_]\w*\}?|\$[0-9#?$!@*-]/g, "*");
    const found = matchToken(token, home, homeParts, cwds);
    if (found) return found;
  }
  return undefined;
}

// Quotes and escapes dropped, `$HOME` expanded: `"$HOME"/.s'sh'` reads as HOME/.ssh.
function plainText(line: string, home: string): string {
  return line
    .replace(/\\(.)/gs, "$1")
    .replace(/['"]/g, "")
    .replace(/\$\{HOME\}|\$HOME\b/g, home);
}

function matchToken(token: string, home: string, homeParts: string[], cwds: readonly string[]): Mention | undefined {
  const named = token === "~" || token.startsWith("~/") ? home + token.slice(1) : token;
  // `..` taken lexically (`/proc/self/../$PPID/environ`); a symlink on the way is the analysis's to follow.
  const path = isAbsolute(named) && named.includes("..") ? normalize(named) : named;
  const parts = split(path);
  const absolute = isAbsolute(path);
  for (const [rel, what] of HOME_DENIED) {
    const entry = split(rel);
    for (let k = 0; k + entry.length <= parts.length; k++) {
      if (!covers(parts.slice(k), entry)) continue;
      // Anchored at the home, or a root-level dot folder left by concatenation (`homedir() + "/.ssh"`),
      // or a distinctive name anywhere in a relative piece.
      // A relative piece must spell the leading dot (a bare `*` or `$f` names nothing in particular).
      const anchored = absolute
        ? (k === homeParts.length && covers(parts.slice(0, k), homeParts)) || (k === 0 && parts[0]!.startsWith("."))
        : parts[k]!.startsWith(".") && (!AMBIGUOUS.has(rel) || k === 0);
      if (anchored && (absolute || !AMBIGUOUS.has(rel) || cwds.includes(home))) return { path: join(home, rel), what };
    }
  }
  const candidates = absolute ? [path] : cwds.map((cwd) => join(cwd, path));
  for (const candidate of candidates) {
    const candidateParts = split(candidate);
    for (const [entry, what] of [...PATTERN_DENIED, ...SYSTEM_DENIED, ...HOME_DENIED.map(([rel, w]) => [join(home, rel), w] as const)]) {
      const entryParts = split(entry);
      if (candidateParts.length >= entryParts.length && covers(candidateParts, entryParts)) return { path: entry, what };
    }
  }
  return undefined;
}

function split(path: string): string[] {
  return path.split("/").filter((part) => part !== "" && part !== ".");
}

/** Whether the first `entry.length` parts of a glob path can name `entry`. */
function covers(parts: readonly string[], entry: readonly string[]): boolean {
  return entry.every((name, i) => parts[i] !== undefined && segmentMatches(parts[i]!, name));
}

// Without case: a line can change a value's case before use (`declare -l f; f=~/.SSH/ID_RSA`,
// `${f,,}`, `tr A-Z a-z`), and on a case-insensitive file system `~/.SSH` is `~/.ssh` anyway.
function segmentMatches(glob: string, name: string): boolean {
  if (name === "*") return true; // a pattern entry's any-name
  const [g, n] = [glob.toLowerCase(), name.toLowerCase()];
  return /[*?[]/.test(g) ? globMatcher(g).test(n) : g === n;
}
