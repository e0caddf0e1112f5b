// Expands a plain glob (`*.ts`, `src/*.ts`, `a/?/b`) against the file system the way bash does by
// default: `*`, `?` and `[...]` within one path segment, no match of a leading `.` unless the
// pattern has one, a pattern that matches nothing kept as written. The analysis sees the words the
// command will get, so a file named `--pre=sh` is read as the option it becomes.
import { readdirSync } from "node:fs";
import { join } from "node:path";

const MAX_MATCHES = 2000;
const WILD = /[*?[]/;

/** The words the glob becomes, or undefined when there are too many to check. */
export function expandGlob(pattern: string, cwd: string, home: string): string[] | undefined {
  const absolute = pattern.startsWith("/");
  const segments = pattern.split("/");
  let found: string[] = [absolute ? "/" : ""];
  for (const [i, segment] of segments.entries()) {
    if (segment === "" && i === 0 && absolute) continue;
    const next: string[] = [];
    for (const prefix of found) {
      if (!WILD.test(segment)) {
        next.push(prefix === "" ? segment : join(prefix, segment) + (segment === "" ? "/" : ""));
        continue;
      }
      for (const name of list(prefix === "" ? cwd : resolveIn(prefix, cwd, home))) {
        if (name.startsWith(".") && !segment.startsWith(".")) continue;
        if (globMatcher(segment).test(name)) next.push(prefix === "" ? name : join(prefix, name));
      }
      if (next.length > MAX_MATCHES) return undefined;
    }
    found = next;
  }
  if (found.length === 0) return [pattern];
  return found.sort();
}

function resolveIn(prefix: string, cwd: string, home: string): string {
  if (prefix.startsWith("/")) return prefix;
  return join(cwd, prefix.replace(/^~(?=\/|$)/, home));
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const cache = new Map<string, RegExp>();
/** A regular expression for one path segment's glob (`*.ts`, `[ab]?`), as bash and find -name match it. */
export function globMatcher(segment: string, caseless = false): RegExp {
  const key = `${caseless ? "i" : "s"}${segment}`;
  let regex = cache.get(key);
  if (regex) return regex;
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") source += ".*";
    else if (c === "?") source += ".";
    else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end < 0) source += "\\[";
      else {
        const body = segment.slice(i + 1, end).replace(/^[!^]/, "^").replace(/\\/g, "\\\\");
        source += validClass(body) ? `[${body}]` : "(?!)"; // a range out of order (`[z-a]`) matches nothing
        i = end;
      }
    } else source += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  regex = new RegExp(`^${source}$`, caseless ? "is" : "s");
  if (cache.size < 500) cache.set(key, regex);
  return regex;
}

function validClass(body: string): boolean {
  try {
    new RegExp(`[${body}]`);
    return true;
  } catch {
    return false;
  }
}
