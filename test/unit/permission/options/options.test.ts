// The option reader and the script readers on their own: what a table makes of words, what a sed
// script or awk program touches, npm's settings, and the engine's use of them (opaque or not).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandPaths } from "../../../../src/permission/command-paths.ts";
import { parseOptions } from "../../../../src/permission/command-options.ts";
import { awkEffects } from "../../../../src/permission/options/awk-program.ts";
import { expandGlob } from "../../../../src/permission/options/glob.ts";
import { sedEffects } from "../../../../src/permission/options/sed-script.ts";
import { optionTable } from "../../../../src/permission/options/table.ts";
import type { ShellCommand } from "../../../../src/permission/shell/types.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-options-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const T = optionTable({
  numeric: true,
  harmless: "-a -b -n= --all --lines= --color|--colour[=] -i[=]",
  write: "-o= --output=",
  runs: "--compress-program=",
});
const flags = (words: string[]) => parseOptions(words, T).items.map((i) => ("flag" in i ? `${i.flag}${i.value === undefined ? "" : `=${i.value}`}` : i.operand));

describe("reading words with a table", () => {
  test("bundles, attached and separate values, optional values only attached, -- and permutation", () => {
    expect(flags(["-abn5", "f", "-o", "out", "--lines", "3", "--color", "g", "-ifoo", "-i", "--", "-a"])).toEqual([
      "-a", "-b", "-n=5", "f", "-o=out", "--lines=3", "--color", "g", "-i=foo", "-i", "-a",
    ]);
  });

  test("a unique prefix is the option; aliases of one option are not ambiguous; otherwise ambiguous or unknown", () => {
    expect(flags(["--outp=x", "--comp=sh", "--col", "--al"])).toEqual(["--output=x", "--compress-program=sh", "--color", "--all"]);
    const wide = optionTable({ harmless: "--sort= --stable --sum" });
    expect(parseOptions(["--s"], wide).ambiguous).toEqual(["--s"]);
    expect(parseOptions(["--st", "--zzz", "-q"], wide)).toMatchObject({ ambiguous: [], unknown: ["--zzz", "-q"] });
  });

  test("-NUM with numeric tables, options stopping at the first operand, Go's single-dash names", () => {
    expect(flags(["-20", "f"])).toEqual(["-20", "f"]);
    const stop = optionTable({ stopAtOperand: true, harmless: "-v=" });
    expect(parseOptions(["-v", "x", "fmt", "-v"], stop).operands).toEqual(["fmt", "-v"]);
    const go = optionTable({ singleDashLong: true, abbreviations: false, runs: "-exec=", harmless: "-run=" });
    expect(parseOptions(["-exec", "./x", "--run=T", "./..."], go).items).toMatchObject([{ flag: "-exec", value: "./x" }, { flag: "-run", value: "T" }, { operand: "./..." }]);
  });

  test("a value given to an option that takes none is reported", () => {
    expect(parseOptions(["--all=1"], T).unknown).toEqual(["--all="]);
  });
});

describe("sed scripts", () => {
  test.each([
    ["s/a/b/g;1d;$p", { reads: [], writes: [], runs: false }],
    ["/x/{p;q}", { reads: [], writes: [], runs: false }],
    ["s/a/b/w out.txt", { reads: [], writes: ["out.txt"], runs: false }],
    ["1r /etc/hosts\nw log", { reads: ["/etc/hosts"], writes: ["log"], runs: false }],
    ["R in; W out", { reads: ["in; W out"], writes: [], runs: false }],
    ["s/x/id/e", { reads: [], writes: [], runs: true }],
    ["2,/y/ e date", { reads: [], writes: [], runs: true }],
    ["s|/usr|/opt|g", { reads: [], writes: [], runs: false }],
    ["y/abc/xyz/", { reads: [], writes: [], runs: false }],
    ["a\\\nhello w x", { reads: [], writes: [], runs: false }],
  ])("%j", (script, expected) => expect(sedEffects(script)).toEqual(expected));

  test("a script that does not read as sed is an error, not a guess", () => {
    expect(sedEffects("s/a/b").error).toBeDefined();
    expect(sedEffects("k").error).toBeDefined();
  });
});

describe("awk programs", () => {
  test.each([
    ["{print $1}", {}],
    ["$3 > 100 { print $1 }", {}],
    ["{ if (a > b) print (a > b) }", {}],
    ["{ print $1 > \"out.txt\" }", { writes: ["out.txt"] }],
    ["{ print >> \"log\" }", { writes: ["log"] }],
    ["{ while ((getline l < \"f\") > 0) n++ }", { reads: ["f"] }],
    ["{ a = 1 / 2; b = $1 /3/ 1 }", {}],
    ["/a|b/ { print \"x|y\" }", {}],
  ])("%s", (program, expected) => expect(awkEffects(program)).toEqual({ reads: [], writes: [], ...expected }));

  test.each(["BEGIN { system(\"id\") }", "{ print | \"sh\" }", "{ \"id\" | getline }", "{ print > $2 }", "{ getline < FILE }", "@load \"x\"", "{ print ENVIRON[\"A\"] }"])(
    "%s runs, or touches what cannot be known",
    (program) => expect(awkEffects(program).runs).toBeDefined(),
  );
});

describe("globs are expanded as bash expands them", () => {
  const dir = join(root, "glob");
  mkdirSync(join(dir, "sub"), { recursive: true });
  for (const f of ["a.ts", "b.ts", ".hidden.ts", "--pre=sh", "sub/c.ts"]) writeFileSync(join(dir, f), "");
  test("matches sorted, dot files only for a dot pattern, a pattern without match kept", () => {
    expect(expandGlob("*.ts", dir, root)).toEqual(["a.ts", "b.ts"]);
    expect(expandGlob(".*.ts", dir, root)).toEqual([".hidden.ts"]);
    expect(expandGlob("*/c.?s", dir, root)).toEqual(["sub/c.ts"]);
    expect(expandGlob("[ab].ts", dir, root)).toEqual(["a.ts", "b.ts"]);
    expect(expandGlob("*.rs", dir, root)).toEqual(["*.rs"]);
    expect(expandGlob(`${dir}/sub/*`, "/", root)).toEqual([join(dir, "sub/c.ts")]);
  });
});

describe("commands through the option tables", () => {
  const ws = join(root, "ws");
  const home = join(root, "home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(join(ws, "odd"), { recursive: true });
  mkdirSync(join(ws, "links"), { recursive: true });
  writeFileSync(join(ws, "odd", "--pre=sh"), "");
  writeFileSync(join(ws, "a.ts"), "");
  symlinkSync(join(home, ".ssh"), join(ws, "links", "keys"));
  const cmd = (argv: string[], extra: Partial<ShellCommand> = {}): ShellCommand => ({ argv, env: [], wrappers: [], cwd: ws, text: argv.join(" "), ...extra });
  const opaque = (argv: string[], extra: Partial<ShellCommand> = {}) => commandPaths(cmd(argv, extra), home).opaque;

  test("an option that runs, an unknown one, an ambiguous prefix: opaque; harmless ones are not", () => {
    expect(opaque(["rg", "--pre", "sh", "x"])).toContain("--pre runs");
    expect(opaque(["ls", "--frobnicate"])).toContain("does not know the option --frobnicate");
    expect(opaque(["sort", "--s", "f"])).toContain("ambiguous");
    expect(opaque(["ls", "-la", "--col=never", "src"])).toBeUndefined();
  });

  test("a glob given to a tabled command is read as the words it becomes", () => {
    expect(opaque(["rg", "x", "*"], { cwd: join(ws, "odd"), unknown: [{ index: 2, kind: "glob" }], dynamic: true })).toContain("--pre runs");
    const paths = commandPaths(cmd(["wc", "-l", "*.ts"], { unknown: [{ index: 2, kind: "glob" }], dynamic: true }), home);
    expect(paths).toEqual({ reads: [join(ws, "a.ts")], writes: [] });
  });

  test("words only known at run time: harmless for echo and basename, opaque for cat, printf's format, test's arithmetic", () => {
    const word = (index: number) => ({ unknown: [{ index, kind: "split" as const }], dynamic: true });
    expect(opaque(["echo", "$PATH"], word(1))).toBeUndefined();
    expect(opaque(["basename", "$(pwd)"], word(1))).toBeUndefined();
    expect(opaque(["cat", "$F"], word(1))).toBeDefined();
    expect(opaque(["printf", "$F", "x"], word(1))).toBeDefined();
    expect(opaque(["printf", "%s", "$X"], word(2))).toBeUndefined();
    expect(opaque(["[", "$X", "-eq", "1", "]"], word(1))).toBeDefined();
  });

  test("npm settings by nopt's rules: prefixes, --no-, shorthands; environment in front", () => {
    expect(opaque(["npm", "test", "--scri=/bin/sh"])).toContain("--script-shell");
    expect(opaque(["npm", "test", "-C", "/tmp"])).toContain("--prefix");
    expect(opaque(["npm", "test", "--no-node-options"])).toContain("--node-options");
    expect(opaque(["npm", "test", "--silent", "-ws", "--", "--watch"])).toBeUndefined();
    expect(opaque(["npm", "test"], { env: ["npm_config_script_shell=/x"] })).toContain("npm_config_script_shell");
    expect(opaque(["cargo", "test"], { env: ["RUSTC_WRAPPER=./x"] })).toContain("RUSTC_WRAPPER");
    expect(opaque(["ls"], { env: ["NODE_OPTIONS=x"] })).toBeUndefined();
  });

  test("xargs words from a name printer are vouched for only where the folder holds nothing misleading", () => {
    const fed = (root: string) => cmd(["wc", "-l"], { wrappers: ["xargs"], dynamic: true, input: cmd(["find", root]) });
    expect(commandPaths(fed("."), home).opaque).toBeDefined(); // odd/--pre=sh and links/keys
    // git ls-files prints names from its repository: git's path handler names the folder to check.
    const listed = cmd(["wc", "-l"], { wrappers: ["xargs"], dynamic: true, input: cmd(["git", "ls-files"]) });
    expect(commandPaths(listed, home).opaque).toContain("xargs reads file names from");
    mkdirSync(join(ws, "clean"), { recursive: true });
    writeFileSync(join(ws, "clean", "x.ts"), "");
    expect(commandPaths(fed("clean"), home).opaque).toBeUndefined();
    expect(commandPaths(fed("links"), home).opaque).toContain("symlink");
    // The names stand in as their folder: an option left without its value takes it.
    const sortOut = cmd(["sort", "-o"], { wrappers: ["xargs"], dynamic: true, input: cmd(["find", "clean"]) });
    expect(commandPaths(sortOut, home).writes).toEqual([join(ws, "clean")]);
    const substituted = cmd(["sort", "-o", "$(find clean)"], { dynamic: true, unknown: [{ index: 2, kind: "split", input: cmd(["find", "clean"]) }] });
    expect(commandPaths(substituted, home)).toEqual({ reads: [], writes: [join(ws, "clean")] });
    const cat = cmd(["cat"], { wrappers: ["xargs"], dynamic: true, input: cmd(["cat", "list"]) });
    expect(commandPaths(cat, home).opaque).toContain("need not be file names");
  });
});

describe("find's -name tests narrow what xargs is given", () => {
  const ws = join(root, "narrow");
  const home = join(root, "home2");
  mkdirSync(join(ws, "links"), { recursive: true });
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(ws, "a.ts"), "");
  writeFileSync(join(ws, "notes with space.md"), "");
  symlinkSync(join(home, ".ssh"), join(ws, "links", "keys"));
  const fed = (...find: string[]) =>
    commandPaths({ argv: ["wc", "-l"], env: [], wrappers: ["xargs"], cwd: ws, text: "", dynamic: true, input: { argv: ["find", ...find], env: [], wrappers: [], cwd: ws, text: "" } }, home).opaque;

  test("entries find would not print are not held against the line; the ones it prints are", () => {
    expect(fed(".", "-name", "*.ts")).toBeUndefined();
    expect(fed(".", "-name", "[ak]*")).toContain("symlink");
    expect(fed(".", "-name", "*.md")).toContain("notes with space.md");
    expect(fed(".", "-name", "*.ts", "-o", "-name", "*.md")).toBeDefined();
    expect(fed(".")).toBeDefined();
  });
});
