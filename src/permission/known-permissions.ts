// The permission names rein's own tools and engine ask for, and how a rule's name is checked
// against them: a near miss of one (`bsah`, `Bash`) or a built-in tool checked under another name
// (`write` is checked as `edit`) is an error, as its rule would silently match nothing; any other
// name may belong to a tool loaded later (a user, project or MCP tool), which only warrants a warning.
import { BUILTIN_TOOLS, builtinPermission } from "./tool-names.ts";

/** What requests rein's engine and built-in tools make. */
export const BUILTIN_PERMISSIONS: readonly string[] = ["bash", "read", "edit", "external_directory", "webfetch", "websearch"];
/** Built-in tools whose calls are checked under another permission (`write` as `edit`). */
const CHECKED_AS: ReadonlyMap<string, string> = new Map(
  BUILTIN_TOOLS.flatMap((tool) => {
    const own = builtinPermission(tool);
    return own?.asks && own.permission !== tool ? [[tool, own.permission] as const] : [];
  }),
);

/** `foreign`: none of rein's names, maybe a user, project or MCP tool's (see foreignPermissionWarnings). */
export type NameCheck = { error: string } | { warning: string } | { foreign: true } | undefined;
/** A rule's permission that is none of rein's own, and where the rule was written. */
export type ForeignPermission = { permission: string; where: string };

export function checkPermissionName(name: string): NameCheck {
  if (name.includes("*") || BUILTIN_PERMISSIONS.includes(name)) return undefined;
  const known = `known permissions: ${BUILTIN_PERMISSIONS.join(", ")}`;
  const as = CHECKED_AS.get(name);
  if (as) return { error: `the ${name} tool is checked as ${as}, so a rule for "${name}" matches nothing: write ${as} instead (${known})` };
  if (builtinPermission(name)?.asks === false) return { warning: `the ${name} tool asks for no permission, so a rule for "${name}" has no effect` };
  const closest = closestName(name);
  if (closest) return { error: `unknown permission "${name}" (did you mean "${closest}"? ${known})` };
  return { foreign: true };
}

/** Warnings for the foreign permissions that no loaded tool has: a rule for such a name applies to nothing yet. */
export function foreignPermissionWarnings(foreign: readonly ForeignPermission[], toolNames: readonly string[]): string[] {
  const lines = foreign
    .filter(({ permission }) => !toolNames.includes(permission))
    .map(
      ({ permission, where }) =>
        `${where}: "${permission}" is none of rein's permissions (${BUILTIN_PERMISSIONS.join(", ")}) and no loaded tool has that name: ` +
        "the rule applies only once a user, project or MCP tool of that name loads",
    );
  return [...new Set(lines)];
}

/** The known name a misspelling most likely meant: the same but for case, or one or two edits away. */
function closestName(name: string): string | undefined {
  const lower = name.toLowerCase();
  const scored = [...BUILTIN_PERMISSIONS, ...CHECKED_AS.keys()]
    .map((known) => ({ known: CHECKED_AS.get(known) ?? known, distance: editDistance(lower, known) }))
    .sort((a, b) => a.distance - b.distance);
  const best = scored[0]!;
  return best.distance <= (name.length >= 6 ? 2 : 1) ? best.known : undefined;
}

/** Edits (insert, delete, substitute, swap two neighbours) between two words. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
