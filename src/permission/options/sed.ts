// sed: options by its table; the script (the first operand, or the -e values) read by
// sed-script.ts for the files it reads (r, R) and writes (w, W, s///w) and the commands it runs
// (e, s///e); -f gives a script from a file, which is not read here: opaque. -i edits the files.
import { hasOption, optionValues, withTable, type PathHandler } from "../command-options.ts";
import { sedEffects } from "./sed-script.ts";
import { optionTable } from "./table.ts";

export const SED = optionTable({
  harmless: `-n --quiet|--silent --debug -e= --expression= --follow-symlinks -l= --line-length= --posix -E -r
    --regexp-extended -s --separate --sandbox -u --unbuffered -z --null-data --help --version -i[=] --in-place[=]`,
  runs: "-f= --file=",
});

export const sedPaths: PathHandler = withTable("sed", SED, (o, s) => {
  const explicit = hasOption(o, "-e", "--expression", "-f", "--file");
  const scripts = explicit ? optionValues(o, "-e", "--expression") : o.operands.slice(0, 1);
  const files = explicit ? o.operands : o.operands.slice(1);
  [...optionValues(o, "-f", "--file"), ...files].forEach((w) => s.read(w));
  if (hasOption(o, "-i", "--in-place")) files.forEach((w) => s.write(w));
  const effects = sedEffects(scripts.join("\n"));
  if (effects.error !== undefined) s.opaque(`the sed script cannot be read: ${effects.error}`);
  if (effects.runs) s.opaque("the sed script runs commands (e)");
  effects.reads.forEach((w) => (w === "/dev/stdin" ? s.opaque("the sed script reads its input as a file") : s.read(w)));
  effects.writes.forEach((w) => s.write(w));
});
