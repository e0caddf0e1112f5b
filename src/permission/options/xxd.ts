// xxd [options] [infile [outfile]]: each option is one word matched by its first letter after the
// dash (`-p`, `-ps`, `-postscript`); one that takes a value has it attached when it is a number
// (`-c8`, `-s+0x10`), else in the next word (`-c 8`, `-cols 8`, `-seek 16`). outfile is written.
import type { PathHandler } from "../command-options.ts";

const FLAGS = new Set([..."abCEehipruvdt"]);
const VALUED = new Set([..."cglnosR"]);

export const xxdPaths: PathHandler = (args, s) => {
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (w === "-" || !w.startsWith("-") || operands.length > 0) {
      operands.push(w);
      continue;
    }
    const letter = w[1]!;
    if (VALUED.has(letter)) {
      if (!/^-.[-+]?(?:0x)?[0-9a-fA-F]+$/.test(w) && !(letter === "R" && w.length > 2)) i++;
    } else if (!FLAGS.has(letter)) return s.opaque(`xxd: rein does not know the option ${w}`);
  }
  if (operands[0] !== undefined) s.read(operands[0]);
  if (operands[1] !== undefined) s.write(operands[1]);
};

/** Whether xxd takes the option (for the --help comparison). */
export function xxdKnows(option: string): boolean {
  return /^-./.test(option) && (FLAGS.has(option[1]!) || VALUED.has(option[1]!));
}
