// Redirections as file accesses: `>`, `>>`, `&>`, `&>>`, `>|`, `>& file` write; `<` reads. Descriptor
// duplications (`2>&1`, `>&2`, `<&3`, `>&-`) touch no file.
import type { Node } from "web-tree-sitter";
import { isAbsolute, resolvePath } from "./paths.ts";
import type { Place, Scope } from "./scope.ts";
import type { Redirect } from "./types.ts";
import type { Walker } from "./walk.ts";
import { evalWord, type Word } from "./words.ts";

const WRITES = new Set([">", ">>", "&>", "&>>", ">|", ">&"]);
const DUPLICATION = /^(?:\d+|-)$/;

export function fileRedirect(w: Walker, node: Node, scope: Scope): void {
  const destination = node.childForFieldName("destination");
  if (!destination) return; // `>&-` and the like
  const operator = node.children.find((c) => !c.isNamed)?.type ?? ">";
  const target = evalWord(w, destination, scope);
  if ((operator === ">&" || operator === "<&") && (DUPLICATION.test(target.value) || destination.type === "number")) return;
  if (operator === "<&") return; // bash refuses `<& file`
  w.redirects.push(toRedirect(WRITES.has(operator) ? "write" : "read", target, scope.place));
}

export function toRedirect(kind: Redirect["kind"], target: Word, place: Place): Redirect {
  const redirect: Redirect = { kind, target: target.text, path: resolvePath(place, target.value) };
  if (target.dynamic || (!place.known && !isAbsolute(target.value))) redirect.dynamic = true;
  return redirect;
}
