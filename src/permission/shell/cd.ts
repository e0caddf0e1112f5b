// Following `cd`, `pushd` and `popd` for the relative paths after them. What cannot be followed
// (`cd -`, `cd "$DIR"`, `popd`, a relative `cd` once CDPATH is set) leaves the directory unknown:
// later commands keep the last known cwd and are marked dynamic.
import { resolve } from "node:path";
import { isAbsolute, resolvePath } from "./paths.ts";
import type { Place, Scope } from "./scope.ts";
import type { Word } from "./words.ts";

export function changeDirectory(scope: Scope, name: string, args: Word[], env: string[]): void {
  // `HOME=/etc cd` goes to /etc; CDPATH and OLDPWD steer `cd dir` and `cd -`.
  const steered = env.some((assignment) => /^(?:HOME|CDPATH|OLDPWD)=/.test(assignment));
  scope.place = steered ? { cwd: scope.place.cwd, known: false } : nextPlace(scope, name, args);
}

function nextPlace(scope: Scope, name: string, args: Word[]): Place {
  const here = scope.place;
  const unknown = { cwd: here.cwd, known: false };
  let i = 0;
  for (; i < args.length && !args[i]!.dynamic && /^-[LPe@n]+$/.test(args[i]!.value); i++) {
    if (name !== "cd" && args[i]!.value.includes("n")) return here; // pushd/popd -n only edit the stack
  }
  if (name === "popd") return unknown;
  if (args[i] && !args[i]!.dynamic && args[i]!.value === "--") i++;
  const operands = args.slice(i);
  if (operands.length === 0) return name === "cd" && scope.home !== undefined ? { cwd: scope.home, known: true } : unknown;
  const dir = operands[0]!;
  if (operands.length > 1 || dir.dynamic || dir.value === "-" || /^[+-]\d+$/.test(dir.value)) return unknown;
  if (dir.value === "") return here;
  if (isAbsolute(dir.value)) return { cwd: resolve(dir.value), known: true };
  if (scope.cdpath && !/^\.\.?(?:\/|$)/.test(dir.value)) return unknown;
  return { cwd: resolvePath(here, dir.value), known: here.known };
}
