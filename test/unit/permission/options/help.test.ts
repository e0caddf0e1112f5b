// Every default-allowed program installed here against its own --help: an option the help lists
// that the option table does not class fails the test (the table would make the command opaque, or
// worse, misread its value). A program that is not installed is skipped, each on its own.
import { describe, expect, test } from "bun:test";
import { FIND_WORDS } from "../../../../src/permission/options/find.ts";
import { jqKnows } from "../../../../src/permission/options/jq.ts";
import { xxdKnows } from "../../../../src/permission/options/xxd.ts";
import { OPTION_TABLES } from "../../../../src/permission/options/tabled-paths.ts";
import { helpOptions } from "./help-options.ts";

// Builtins answer for themselves (bash's `help`), not through a program's --help.
const BUILTINS = new Set(["echo", "printf", "true", "false", "test", "[", "type", "pwd", "which"]);
// How each program prints its help, when not `--help`.
const HELP_ARGS: Record<string, string[]> = { xxd: ["-h"], awk: ["-W", "usage"], mawk: ["-W", "usage"], nawk: ["-W", "usage"] };
// Placeholders that help texts print in an option's place.
const NOT_OPTIONS: Record<string, string[]> = { diff: ["--GTYPE-group-format", "--LTYPE-line-format"], cut: ["-M"] };

function help(program: string): string | undefined {
  const args = HELP_ARGS[program] ?? ["--help"];
  try {
    const run = Bun.spawnSync([program, ...args], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" } });
    const text = run.stdout.toString() + run.stderr.toString();
    return /not found|No such file/.test(text) && run.exitCode === 127 ? undefined : text;
  } catch {
    return undefined; // not installed
  }
}

const unclassed = (program: string, known: (option: string) => boolean, text: string) =>
  helpOptions(text).filter((option) => !known(option) && !(NOT_OPTIONS[program] ?? []).includes(option));

describe("the option tables know every option the installed programs' --help lists", () => {
  for (const [program, table] of Object.entries(OPTION_TABLES)) {
    if (BUILTINS.has(program)) continue;
    const text = help(program);
    test.skipIf(text === undefined)(program, () => {
      const known = (option: string) => table.options.has(option);
      const found = helpOptions(text!);
      expect(found.length).toBeGreaterThan(0);
      expect(unclassed(program, known, text!)).toEqual([]);
    });
  }
  for (const [program, known] of [["find", (o: string) => FIND_WORDS.has(o) || /^-(exec|ok)(dir)?$/.test(o)], ["jq", jqKnows], ["xxd", xxdKnows]] as const) {
    const text = help(program);
    test.skipIf(text === undefined)(program, () => {
      expect(helpOptions(text!).length).toBeGreaterThan(5);
      expect(unclassed(program, known, text!)).toEqual([]);
    });
  }
});

test("the help reader finds options in the GNU, util-linux, binutils, clap and plain formats", () => {
  const text = [
    "Usage: x [OPTION]...",
    "  -o, --output=FILE          write result to FILE",
    "      --color[=WHEN]         colour",
    " -e, --format <format>       format string",
    "  -a - --all                 scan all",
    "    -A, --after-context <NUM>",
    "            Show NUM lines after each match, like --not-this",
    "  -c               compact output",
    "  -NUM                       same as --context=NUM",
  ].join("\n");
  expect(helpOptions(text).sort()).toEqual(["-A", "-a", "-c", "-e", "-o", "--after-context", "--all", "--color", "--format", "--output"].sort());
});
