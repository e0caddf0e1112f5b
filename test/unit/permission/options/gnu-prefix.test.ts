// The tables' reading of GNU long-option abbreviations against the real programs: for every long
// option of sort, grep, date and the other GNU tools the defaults allow, and its prefixes, the table's answer (that option, ambiguous,
// unknown) agrees with what the program's getopt_long does; and an abbreviated option that writes
// or reads a file does so in the program as in the analysis.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandPaths } from "../../../../src/permission/command-paths.ts";
import { lookupLong } from "../../../../src/permission/options/table.ts";
import { OPTION_TABLES } from "../../../../src/permission/options/tabled-paths.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "rein-prefix-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const installed = (program: string) => Bun.which(program) !== null;
const run = (argv: string[]) => {
  const r = Bun.spawnSync(argv, { cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: 5000, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" } });
  return { code: r.exitCode, err: r.stderr.toString() };
};

/** What getopt_long made of `--prefix`: "ambiguous", "unknown", or "resolved". */
function programReads(program: string, word: string): string {
  const { err } = run([program, word]);
  if (/ambiguous/.test(err)) return "ambiguous";
  if (/unrecognized option|unknown option/.test(err)) return "unknown";
  return "resolved";
}

function tableReads(program: string, word: string): string {
  const found = lookupLong(OPTION_TABLES[program]!, word);
  return "def" in found ? "resolved" : "ambiguous" in found ? "ambiguous" : "unknown";
}

// GNU programs that, given one option and no input, answer at once (tail --follow would wait).
const GNU = ["sort", "grep", "date", "ls", "cat", "head", "wc", "uniq", "cut", "nl", "od", "stat", "readlink", "realpath"]
  .concat(["basename", "dirname", "du", "df", "diff", "cmp", "md5sum", "tac", "paste", "comm", "join", "fold", "expand"])
  .concat(["unexpand", "fmt", "seq", "id", "uname", "tr", "sed"]);

describe("prefixes of long options resolve as the program's getopt_long resolves them", () => {
  for (const program of GNU) {
    test.skipIf(!installed(program))(program, () => {
      const words = new Set<string>();
      for (const long of OPTION_TABLES[program]!.longs) {
        // `date --s...` with a value would set the clock: without one it only complains.
        for (let n = 3; n <= Math.min(long.length, 9); n++) words.add(long.slice(0, n));
      }
      words.add("--frobnicate");
      // A table may know options of a newer version than the one installed (wc --total, md5sum
      // --base64): the program then refuses what the table resolves, or resolves what the table
      // finds ambiguous (and makes opaque). The other differences mean the table misses an option.
      const newer = (real: string, table: string) => (real === "unknown" && table === "resolved") || (real === "resolved" && table === "ambiguous");
      const disagree = [...words]
        .map((w) => [w, programReads(program, w), tableReads(program, w)] as const)
        .filter(([, real, table]) => real !== table && !newer(real, table))
        .map(([w, real, table]) => `${w}: program ${real}, table ${table}`);
      expect(words.size).toBeGreaterThan(2);
      expect(disagree).toEqual([]);
    });
  }
});

const paths = (argv: string[]) => commandPaths({ argv, env: [], wrappers: [], cwd: dir, text: argv.join(" ") }, dir);

describe("an abbreviated option does in the program what the analysis says", () => {
  test.skipIf(!installed("sort"))("sort --outp=F and sort --o=F write F", () => {
    writeFileSync(join(dir, "in.txt"), "b\na\n");
    for (const [word, file] of [["--outp=out1.txt", "out1.txt"], ["--o=out2.txt", "out2.txt"]] as const) {
      expect(run(["sort", word, "in.txt"]).code).toBe(0);
      expect(readFileSync(join(dir, file), "utf8")).toBe("a\nb\n");
      expect(paths(["sort", word, "in.txt"]).writes).toEqual([join(dir, file)]);
    }
  });

  test.skipIf(!installed("sort"))("sort --compress-prog=PROG is a program to run: opaque", () => {
    expect(paths(["sort", "--compress-prog=sh", "in.txt"]).opaque).toContain("runs a program");
    expect(paths(["sort", "--s", "in.txt"]).opaque).toContain("ambiguous");
    expect(run(["sort", "--s", "in.txt"]).code).not.toBe(0);
  });

  test.skipIf(!installed("grep"))("grep --regex=P takes P as the pattern; --fil is ambiguous in grep and in the table", () => {
    writeFileSync(join(dir, "hay.txt"), "hay\nneedle\n");
    const r = Bun.spawnSync(["grep", "--regex=needle", "hay.txt"], { cwd: dir });
    expect(r.stdout.toString()).toBe("needle\n");
    expect(paths(["grep", "--regex=needle", "hay.txt"]).reads).toEqual([join(dir, "hay.txt")]);
    expect(run(["grep", "--fil=x", "hay.txt"]).err).toContain("ambiguous");
    expect(paths(["grep", "--fil=x", "hay.txt"]).opaque).toContain("ambiguous");
  });

  test.skipIf(!installed("date"))("date --fi=F reads F (and prints its lines through errors); --se is --set", () => {
    writeFileSync(join(dir, "dates"), "not a date: the secret\n");
    expect(run(["date", "--fi=dates"]).err).toContain("the secret");
    expect(paths(["date", "--fi=dates"]).reads).toEqual([join(dir, "dates")]);
    expect(run(["date", "--se"]).err).toContain("requires an argument");
    expect(paths(["date", "--se", "12:00"]).opaque).toContain("does more than read");
    expect(existsSync(join(dir, "dates"))).toBe(true);
  });
});
