// Wildcard patterns: `*` matches any run of characters (newlines included); a trailing ` *` also
// matches nothing, so `ls *` matches `ls` and `ls -la` but not `lsblk`. `\*` and `\\` stand for a
// literal `*` and `\` (exact patterns saved from commands that contain them).
const cache = new Map<string, RegExp>();

export function matchWildcard(pattern: string, text: string): boolean {
  // Most rules name a permission outright, or all of them: no expression to make for those.
  if (pattern === "*") return true;
  if (!pattern.includes("*") && !pattern.includes("\\")) return pattern === text;
  let re = cache.get(pattern);
  if (!re) {
    re = compile(pattern);
    cache.set(pattern, re);
  }
  return re.test(text);
}

function compile(pattern: string): RegExp {
  const trailing = pattern.endsWith(" *"); // a star after a space is never escaped
  const body = trailing ? pattern.slice(0, -2) : pattern;
  let source = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === "\\" && (body[i + 1] === "*" || body[i + 1] === "\\")) {
      source += escapeRegExp(body[++i]!);
    } else {
      source += c === "*" ? "[\\s\\S]*" : escapeRegExp(c);
    }
  }
  return new RegExp(`^${source}${trailing ? "( [\\s\\S]*)?" : ""}$`);
}

function escapeRegExp(c: string): string {
  return /[.+?^${}()|[\]\\*]/.test(c) ? `\\${c}` : c;
}
