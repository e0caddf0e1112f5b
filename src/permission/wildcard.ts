// Wildcard patterns: `*` matches any run of characters (newlines included); a trailing ` *` also
// matches nothing, so `ls *` matches `ls` and `ls -la` but not `lsblk`.
const cache = new Map<string, RegExp>();

export function matchWildcard(pattern: string, text: string): boolean {
  let re = cache.get(pattern);
  if (!re) {
    re = compile(pattern);
    cache.set(pattern, re);
  }
  return re.test(text);
}

function compile(pattern: string): RegExp {
  const trailing = pattern.endsWith(" *");
  const body = trailing ? pattern.slice(0, -2) : pattern;
  const source = body
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  return new RegExp(`^${source}${trailing ? "( [\\s\\S]*)?" : ""}$`);
}
