// The commands people allow-list to run a project's tests and scripts: their options and the
// environment put in front of them are checked for what changes what runs (runners.ts, npm.ts);
// files named by their options are reads and writes; their other arguments are left to the rules.
import { withTable, type Operands, type PathHandler } from "../command-options.ts";
import { npmArgs } from "./npm.ts";
import { BUN, CARGO, GO, MAKE, NODE, PNPM, PYTEST, YARN } from "./runners.ts";

const nothing: Operands = () => {};
// make VAR=value overrides a variable of the makefile (SHELL, CC...): it changes what runs.
const makeOperands: Operands = (o, s) => {
  if (o.operands.some((w) => /^[^=\s-][^=\s]*=/.test(w))) s.opaque("make given VAR=value overrides what the makefile runs");
};
const npm: PathHandler = (args, s) => void npmArgs("npm", args, s);

export const RUNNER_PATHS: Record<string, PathHandler> = {
  npm,
  npx: (args, s) => void npmArgs("npx", args, s),
  pnpm: withTable("pnpm", PNPM, nothing),
  pnpx: withTable("pnpx", PNPM, nothing),
  yarn: withTable("yarn", YARN, nothing),
  bun: withTable("bun", BUN, nothing),
  bunx: withTable("bunx", BUN, nothing),
  node: withTable("node", NODE, nothing),
  make: withTable("make", MAKE, makeOperands),
  gmake: withTable("make", MAKE, makeOperands),
  pytest: withTable("pytest", PYTEST, nothing),
  cargo: withTable("cargo", CARGO, nothing),
  go: withTable("go", GO, nothing),
};
