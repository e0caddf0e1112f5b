// .gitignore rules as data: parse a file's text into rules, then ask whether a name in a folder is ignored.
// Follows gitignore(5): comments, `!` negation, trailing `/` for directories only, a slash at the
// start or in the middle anchors a pattern to the file's folder, `**` spans folders, and the last
// matching rule wins (rules from deeper files come later, so they win over shallower ones).

export type IgnoreRule = {
  /** the folder holding the .gitignore, absolute, with a trailing `/` */
  base: string;
  regex: RegExp;
  /** matched against the base name alone (a pattern with no slash matches at any depth) */
  basename: boolean;
  negate: boolean;
  dirOnly: boolean;
};

export function parseGitignore(text: string, dir: string): IgnoreRule[] {
  const base = dir.endsWith("/") ? dir : `${dir}/`;
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    let line = raw.replace(/\r$/, "").replace(/(?<!\\) +$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.replace(/\/+$/, "");
    if (line === "") continue;
    const basename = !line.includes("/");
    const pattern = line.startsWith("/") ? line.slice(1) : line;
    const regex = toRegex(basename ? segmentSource(pattern) : pathSource(pattern));
    if (regex) rules.push({ base, regex, basename, negate, dirOnly });
  }
  return rules;
}

/**
 * Whether a name in the folder `dir` (absolute, ending in `/`) is ignored, the rules that cannot
 * apply there set aside once for the whole folder: a walk asks this of every entry.
 */
export function ignoredIn(rules: readonly IgnoreRule[], dir: string): (name: string, isDir: boolean) => boolean {
  const here: { rule: IgnoreRule; prefix: string }[] = [];
  for (const rule of rules) if (dir.startsWith(rule.base)) here.push({ rule, prefix: dir.slice(rule.base.length) });
  if (here.length === 0) return () => false;
  return (name, isDir) => {
    let ignored = false;
    for (const { rule, prefix } of here) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(rule.basename ? name : prefix + name)) ignored = !rule.negate;
    }
    return ignored;
  };
}

/** A pattern git could not match either (a class like `[z-a]`) is left out. */
function toRegex(source: string): RegExp | undefined {
  try {
    return new RegExp(`^${source}$`);
  } catch {
    return undefined;
  }
}

function pathSource(pattern: string): string {
  const segments = pattern.split("/");
  return segments
    .map((segment, i) => {
      const last = i === segments.length - 1;
      if (segment === "**") return last ? ".*" : "(?:[^/]*/)*";
      return segmentSource(segment) + (last ? "" : "/");
    })
    .join("");
}

/** One path segment: `*` and `?` never cross a slash, `[...]` is a class, `\` escapes. */
function segmentSource(segment: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "\\" && i + 1 < segment.length) out += escapeRegex(segment[++i]!);
    else if (c === "[") {
      const end = classEnd(segment, i);
      if (end < 0) out += "\\[";
      else {
        out += classSource(segment.slice(i + 1, end));
        i = end;
      }
    } else out += escapeRegex(c);
  }
  return out;
}

function classEnd(segment: string, open: number): number {
  let i = open + 1;
  if (segment[i] === "!" || segment[i] === "^") i++;
  if (segment[i] === "]") i++;
  for (; i < segment.length; i++) {
    if (segment[i] === "\\") i++;
    else if (segment[i] === "]") return i;
  }
  return -1;
}

function classSource(body: string): string {
  let out = "[";
  let i = 0;
  if (body[0] === "!" || body[0] === "^") {
    out += "^";
    i = 1;
  }
  for (; i < body.length; i++) {
    const c = body[i]!;
    if (c === "\\" && i + 1 < body.length) out += `\\${body[++i]}`;
    else out += c === "-" ? c : escapeRegex(c);
  }
  return `${out}]`;
}

function escapeRegex(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}
