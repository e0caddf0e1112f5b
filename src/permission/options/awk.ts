// awk (gawk, mawk and the POSIX one): options by a table that covers them; the program (the first
// operand, or the -e/--source values) read by awk-program.ts. -f, -i, -l and -E load a program or
// an extension from a file, which is not read here: opaque. `var=value` operands are not files.
import { hasOption, optionValues, withTable, type PathHandler } from "../command-options.ts";
import { awkEffects } from "./awk-program.ts";
import { optionTable } from "./table.ts";

// gawk's options stop at the program (its getopt string starts with `+`), mawk's too: a word
// after it is a file (`awk '{print}' -F ~/.ssh/id_rsa` reads the key).
export const AWK = optionTable({
  stopAtOperand: true,
  harmless: `-F= --field-separator= -v= --assign= -e= --source= -b --characters-as-bytes -c --traditional -C --copyright
    -g --gen-pot -h --help -L[=] --lint[=] -M --bignum -n --non-decimal-data -N --use-lc-numeric -O --optimize -P
    --posix -r --re-interval -s --no-optimize -S --sandbox -t --lint-old -V --version -k --csv -I --trace -W=`,
  runs: "-f= --file= -i= --include= -l= --load= -E= --exec=",
  effect: "-d[=] --dump-variables[=] -D[=] --debug[=] -o[=] --pretty-print[=] -p[=] --profile[=] --persist[=]",
});

export const awkPaths: PathHandler = withTable("awk", AWK, (o, s) => {
  // mawk's -W takes its own words: `-W exec FILE` runs a program file.
  if (optionValues(o, "-W").some((w) => /^e/.test(w))) s.opaque("awk -W exec runs a program file");
  const explicit = hasOption(o, "-e", "--source", "-f", "--file", "-E", "--exec");
  const programs = explicit ? optionValues(o, "-e", "--source") : o.operands.slice(0, 1);
  const files = explicit ? o.operands : o.operands.slice(1);
  optionValues(o, "-f", "--file").forEach((w) => s.read(w));
  files.filter((w) => !/^[A-Za-z_]\w*=/.test(w)).forEach((w) => s.read(w));
  for (const program of programs) {
    const effects = awkEffects(program);
    if (effects.error !== undefined) s.opaque(`the awk program cannot be read: ${effects.error}`);
    if (effects.runs !== undefined) s.opaque(effects.runs);
    effects.reads.forEach((w) => (w === "-" || w === "/dev/stdin" ? undefined : s.read(w)));
    effects.writes.forEach((w) => s.write(w));
  }
});
