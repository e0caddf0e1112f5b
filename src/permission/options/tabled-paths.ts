// The commands the defaults allow without asking, each read with its complete option table: an
// option the table does not know, an ambiguous abbreviation, or one that runs a program makes the
// command opaque; option values and operands that are files become reads and writes.
import { hasOption, readAll, withTable, type Operands, type PathHandler } from "../command-options.ts";
import { AWK, awkPaths } from "./awk.ts";
import { checksumOperands } from "./checksum-list.ts";
import * as core from "./coreutils.ts";
import * as files from "./files.ts";
import { findPaths } from "./find.ts";
import { jqPaths } from "./jq.ts";
import { GREP, RG } from "./search.ts";
import { SED, sedPaths } from "./sed.ts";
import { xxdPaths } from "./xxd.ts";
import * as text from "./text-tools.ts";
import { optionTable, type OptionTable } from "./table.ts";

export const readOrCwd: Operands = (o, s) => (o.operands.length > 0 ? readAll(o, s) : s.read("."));
const nothing: Operands = () => {};

/** grep-like: the first operand is the pattern unless one was given by a flag; no file: cwd if recursive. */
export const search =
  (patternFlags: string[], recursiveFlags: string[] | "always"): Operands =>
  (o, s) => {
    const files = hasOption(o, ...patternFlags) ? o.operands : o.operands.slice(1);
    if (files.length > 0) return files.forEach((w) => s.read(w));
    if (hasOption(o, "--version", "-V", "--help", "--type-list", "--pcre2-version")) return; // not -h: grep -h is --no-filename
    if (recursiveFlags === "always" || hasOption(o, ...recursiveFlags)) s.read(".");
  };

/** uniq and xxd: an input file, then an output file. */
export const inOut: Operands = (o, s) => {
  if (o.operands[0] !== undefined) s.read(o.operands[0]);
  if (o.operands[1] !== undefined) s.write(o.operands[1]);
};

// date: an operand that is not +FORMAT sets the clock (MMDDhhmm[[CC]YY][.ss]).
const dateOperands: Operands = (o, s) => {
  if (o.operands.some((w) => !w.startsWith("+"))) s.opaque("date given a time sets the clock");
};
// binutils strings reads more options from `@FILE`.
const stringsOperands: Operands = (o, s) => {
  if (o.operands.some((w) => w.startsWith("@"))) s.opaque("strings reads options from an @file");
  readAll(o, s);
};
// hostname NAME and hostname -F FILE set the host name.
const hostnameOperands: Operands = (o, s) => {
  if (o.operands.length > 0) s.opaque("hostname given a name sets it");
};

const GREP_PATTERN = ["-e", "--regexp", "-f", "--file"];
const grep = withTable("grep", GREP, search(GREP_PATTERN, ["-r", "-R", "--recursive", "--dereference-recursive"]));
const HOSTNAME = optionTable({
  harmless: `-a --alias -A --all-fqdns -d --domain -f --fqdn --long -i --ip-address -I --all-ip-addresses -s --short -y
    --yp|--nis -v --verbose -V --version -h --help`,
  effect: "-b --boot -F= --file=",
});

const table = (name: string, t: OptionTable, operands: Operands): [string, PathHandler] => [name, withTable(name, t, operands)];
const CHECKSUMS = ["md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum"];
const INERT_TABLES: [string, OptionTable][] = [
  ["basename", core.BASENAME], ["dirname", core.DIRNAME], ["pwd", core.PWD], ["whoami", core.WHOAMI], ["id", core.ID],
  ["uname", core.UNAME], ["seq", core.SEQ], ["tr", core.TR], ["echo", core.ECHO], ["printf", core.PRINTF],
  ["true", core.NOTHING], ["false", core.NOTHING], ["test", core.NOTHING], ["[", core.NOTHING], ["which", core.NOTHING],
  ["type", core.NOTHING], [":", core.NOTHING], ["nproc", text.NPROC], ["arch", text.INFO_ONLY], ["uptime", text.UPTIME],
  ["sleep", text.INFO_ONLY], ["expr", text.INFO_ONLY],
];
const TEXT_TABLES: [string, OptionTable][] = [
  ["tac", text.TAC], ["paste", text.PASTE], ["comm", text.COMM], ["join", text.JOIN], ["fold", text.FOLD], ["rev", text.REV],
  ["expand", text.EXPAND], ["unexpand", text.UNEXPAND], ["fmt", text.FMT],
];

/**
 * Commands whose arguments are only printed, compared or looked up, never files read: a word only
 * known when the line runs (`echo $PATH`, `basename "$(pwd)"`) cannot make them do anything else.
 */
export const INERT_COMMANDS: ReadonlySet<string> = new Set(INERT_TABLES.map(([name]) => name));

/** The option tables of the commands above that have one (find and jq have grammars of their own). */
export const OPTION_TABLES: Readonly<Record<string, OptionTable>> = Object.fromEntries([
  ...INERT_TABLES,
  ...TEXT_TABLES,
  ...CHECKSUMS.map((name): [string, OptionTable] => [name, core.CHECKSUM]),
  ...Object.entries({ sum: core.SUM, cat: core.CAT, head: core.HEAD, tail: core.TAIL, wc: core.WC, sort: core.SORT, uniq: core.UNIQ }),
  ...Object.entries({ cut: core.CUT, nl: core.NL, realpath: core.REALPATH, readlink: core.READLINK, od: core.OD }),
  ...Object.entries({ date: core.DATE, stat: core.STAT, du: core.DU, df: core.DF, ls: core.LS, hostname: HOSTNAME }),
  ...Object.entries({ diff: files.DIFF, cmp: files.CMP, file: files.FILE, hexdump: files.HEXDUMP, hd: files.HEXDUMP }),
  ...Object.entries({ strings: files.STRINGS, column: files.COLUMN, tree: files.TREE, rg: RG }),
  ...Object.entries({ grep: GREP, egrep: GREP, fgrep: GREP, sed: SED, awk: AWK, gawk: AWK, mawk: AWK, nawk: AWK }),
]);

export const TABLED_PATHS: Record<string, PathHandler> = Object.fromEntries([
  ...INERT_TABLES.map(([name, t]) => table(name, t, nothing)),
  ...TEXT_TABLES.map(([name, t]) => table(name, t, readAll)),
  ...CHECKSUMS.map((name) => table(name, core.CHECKSUM, checksumOperands)),
  table("sum", core.SUM, readAll),
  table("cat", core.CAT, readAll),
  table("head", core.HEAD, readAll),
  table("tail", core.TAIL, readAll),
  table("wc", core.WC, readAll),
  table("sort", core.SORT, readAll),
  table("uniq", core.UNIQ, inOut),
  table("cut", core.CUT, readAll),
  table("nl", core.NL, readAll),
  table("realpath", core.REALPATH, readAll),
  table("readlink", core.READLINK, readAll),
  table("od", core.OD, readAll),
  table("date", core.DATE, dateOperands),
  table("stat", core.STAT, readAll),
  table("du", core.DU, readOrCwd),
  table("df", core.DF, readAll),
  table("ls", core.LS, readOrCwd),
  table("hostname", HOSTNAME, hostnameOperands),
  table("diff", files.DIFF, readAll),
  table("cmp", files.CMP, readAll),
  table("file", files.FILE, readAll),
  table("hexdump", files.HEXDUMP, readAll),
  table("hd", files.HEXDUMP, readAll),
  table("strings", files.STRINGS, stringsOperands),
  table("column", files.COLUMN, readAll),
  table("tree", files.TREE, readOrCwd),
  ["xxd", xxdPaths],
  table("rg", RG, search([...GREP_PATTERN, "--files", "--type-list"], "always")),
  ["grep", grep],
  ["egrep", grep],
  ["fgrep", grep],
  ["find", findPaths],
  ["jq", jqPaths],
  ["sed", sedPaths],
  ["awk", awkPaths],
  ["gawk", awkPaths],
  ["mawk", awkPaths],
  ["nawk", awkPaths],
]);
