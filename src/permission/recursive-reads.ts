// Whether a command reads the folders it is given as whole trees (grep -r, find, tar...) and whether
// it follows the symlinks it meets there. A command not known to read only what it names is taken
// as recursive: reading a folder as a tree is what decides whether ~/.ssh inside it is swept up.
import { basename } from "node:path";
import type { ShellCommand } from "./shell/types.ts";

type Flags = { short?: string; long?: readonly string[]; words?: readonly string[] };

// Commands that read only the entries they name, unless one of these flags makes them recurse.
const SHALLOW: Record<string, Flags> = {
  ls: { short: "R", long: ["--recursive"] },
  dir: { short: "R", long: ["--recursive"] },
  grep: { short: "rR", long: ["--recursive", "--dereference-recursive", "--directories=recurse"], words: ["-d recurse"] },
  egrep: { short: "rR", long: ["--recursive", "--dereference-recursive"] },
  fgrep: { short: "rR", long: ["--recursive", "--dereference-recursive"] },
  cp: { short: "rRa", long: ["--recursive", "--archive"] },
  scp: { short: "r" },
  rsync: { short: "ra", long: ["--recursive", "--archive"] },
  diff: { short: "r", long: ["--recursive"] },
  zip: { short: "rR", long: ["--recurse-paths", "--recurse-patterns"] },
  chmod: { short: "R", long: ["--recursive"] },
  chown: { short: "R", long: ["--recursive"] },
  chgrp: { short: "R", long: ["--recursive"] },
  wc: {}, cat: {}, head: {}, tail: {}, less: {}, more: {}, file: {}, stat: {}, cd: {}, pushd: {}, echo: {},
  printf: {}, basename: {}, dirname: {}, realpath: {}, readlink: {}, test: {}, "[": {}, md5sum: {}, sha1sum: {},
  sha256sum: {}, sha512sum: {}, cksum: {}, sort: {}, uniq: {}, cut: {}, tr: {}, nl: {}, column: {}, jq: {},
  xxd: {}, od: {}, hexdump: {}, strings: {}, cmp: {}, touch: {}, mkdir: {}, rmdir: {}, ln: {}, mv: {}, sed: {},
  awk: {}, gawk: {}, git: {}, tee: {}, base64: {}, comm: {}, join: {}, paste: {}, fold: {}, fmt: {}, rev: {},
  tac: {}, shuf: {}, split: {}, csplit: {}, iconv: {}, vim: {}, vi: {}, nano: {}, code: {}, open: {}, df: {},
};

// How each recursive reader is told to follow symlinks (zip follows them unless -y).
const FOLLOW: Record<string, Flags> = {
  grep: { short: "R", long: ["--dereference-recursive"] },
  egrep: { short: "R", long: ["--dereference-recursive"] },
  fgrep: { short: "R", long: ["--dereference-recursive"] },
  rg: { short: "L", long: ["--follow"] },
  find: { words: ["-L", "-follow"] },
  tree: { short: "l" },
  du: { short: "L", long: ["--dereference"] },
  cp: { short: "L", long: ["--dereference"] },
  tar: { short: "h", long: ["--dereference"] },
  rsync: { short: "Lk", long: ["--copy-links", "--copy-dirlinks"] },
  ls: { short: "L", long: ["--dereference"] },
  fd: { short: "L", long: ["--follow"] },
  ag: { short: "f", long: ["--follow"] },
  ack: { long: ["--follow"] },
};

/** Whether `command` may read the folders among its paths as whole trees. */
export function readsTrees(command: ShellCommand): boolean {
  const name = basename(command.argv[0] ?? "");
  const flags = SHALLOW[name];
  return flags === undefined || has(command.argv.slice(1), flags);
}

// Tree readers that read the files' contents, hidden ones included (rg and ag skip hidden files
// unless told: `--hidden`, `-.`, `-uu`). Listers (find, tree, du, ls -R) show only names.
const CONTENT: Record<string, Flags | true> = {
  grep: true, egrep: true, fgrep: true, cp: true, tar: true, zip: true, rsync: true, scp: true, diff: true,
  rg: { long: ["--hidden", "--no-ignore-hidden"], words: ["-.", "-uu", "-uuu"] },
  ag: { long: ["--hidden", "--unrestricted"], words: ["-u"] },
  ack: true,
};

/** Whether a recursive reader reads the contents of the files it meets, hidden or not (rg, ag: only the visible ones unless told). */
export function readsContents(command: ShellCommand): boolean {
  const name = basename(command.argv[0] ?? "");
  if (name === "rg" && command.argv.includes("--files")) return false; // lists the names it would search
  return CONTENT[name] !== undefined;
}

/** Whether a recursive reader reads the contents of the hidden files it meets (a `.env` among them). */
export function readsHiddenContents(command: ShellCommand): boolean {
  const flags = CONTENT[basename(command.argv[0] ?? "")];
  if (flags === undefined) return false;
  return flags === true || has(command.argv.slice(1), flags);
}

/** Whether a recursive reader follows the symlinks inside the trees it reads. */
export function followsLinks(command: ShellCommand): boolean {
  const name = basename(command.argv[0] ?? "");
  if (name === "zip") return !has(command.argv.slice(1), { short: "y", long: ["--symlinks"] });
  const flags = FOLLOW[name];
  return flags === undefined ? !(name in SHALLOW) : has(command.argv.slice(1), flags);
}

function has(args: readonly string[], flags: Flags): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return false;
    if (flags.words?.some((w) => w === arg || w === `${arg} ${args[i + 1]}`)) return true;
    if (arg.startsWith("--")) {
      // GNU accepts a unique prefix of a long option (`--recur`).
      if (arg.length > 4 && flags.long?.some((long) => long.startsWith(arg) || (long.includes("=") && arg === long))) return true;
      continue;
    }
    if (/^-[A-Za-z]+$/.test(arg) && flags.short && [...arg.slice(1)].some((c) => flags.short!.includes(c))) return true;
  }
  return false;
}
