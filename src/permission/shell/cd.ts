// Following `cd`, `pushd` and `popd` for the relative paths after them. What cannot be followed
// (`cd -`, `cd "$DIR"`, `popd`, a relative `cd` once CDPATH is set) leaves the directory unknown:
// later commands keep the last known cwd and are marked dynamic. `cd -P` (or `set -P`) goes to the
// physical folder, links resolved first; a logical `cd` takes `..` lexically, and falls back to the
// physical folder when the lexical one does not exist, as bash does.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { resolveForCheck } from "../paths.ts";
import { isAbsolute, resolvePath } from "./paths.ts";
import type { Place, Scope } from "./scope.ts";
import type { Word } from "./words.ts";

export function changeDirectory(scope: Scope, name: string, args: Word[], env: string[]): void {
  // `HOME=/etc cd` goes to /etc; CDPATH and OLDPWD steer `cd dir` and `cd -`.
  const steered = env.some((assignment) => /^(?:HOME|CDPATH|OLDPWD)=/.test(assignment));
  const before = scope.place;
  scope.place = steered ? { cwd: scope.place.cwd, known: false } : nextPlace(scope, name, args);
  scope.previous = before; // OLDPWD, also after popd (and unknown to bash if the cd failed: ~- is unresolved)
}

function nextPlace(scope: Scope, name: string, args: Word[]): Place {
  const here = scope.place;
  const unknown = { cwd: here.cwd, known: false };
  let i = 0;
  let physical = scope.physical;
  for (; i < args.length && !args[i]!.dynamic && /^-[LPe@n]+$/.test(args[i]!.value); i++) {
    const flags = args[i]!.value;
    if (name !== "cd" && flags.includes("n")) return here; // pushd/popd -n only edit the stack
    physical = flags.lastIndexOf("P") > flags.lastIndexOf("L") ? true : flags.includes("L") ? false : physical;
  }
  if (name === "popd") return unknown;
  if (args[i] && !args[i]!.dynamic && args[i]!.value === "--") i++;
  const operands = args.slice(i);
  if (operands.length === 0) return name === "cd" && scope.home !== undefined ? { cwd: scope.home, known: true } : unknown;
  const dir = operands[0]!;
  if (operands.length > 1 || dir.dynamic || dir.value === "-" || /^[+-]\d+$/.test(dir.value)) return unknown;
  if (dir.value === "") return here;
  if (scope.cdpath && !isAbsolute(dir.value) && !/^\.\.?(?:\/|$)/.test(dir.value)) return unknown;
  const known = here.known || isAbsolute(dir.value);
  const lexical = isAbsolute(dir.value) ? resolve(dir.value) : resolvePath(here, dir.value);
  if (!physical && (existsSync(lexical) || !dir.value.includes(".."))) return { cwd: lexical, known };
  const joined = isAbsolute(dir.value) ? dir.value : `${here.cwd}/${dir.value}`;
  return { cwd: resolveForCheck(joined, "/", scope.home ?? "/"), known };
}

/** `set -P`, `set -o physical` (and `+P`, `+o physical`) switch every later `cd` to physical. */
export function setOptions(scope: Scope, args: Word[]): void {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (/^-[a-zA-Z]*P/.test(v) || (v === "-o" && args[i + 1]?.value === "physical")) scope.physical = true;
    if (/^\+[a-zA-Z]*P/.test(v) || (v === "+o" && args[i + 1]?.value === "physical")) scope.physical = false;
  }
}
