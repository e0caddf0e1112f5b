// `md5sum -c LIST` (and sha*sum, b2sum, cksum -c) reads every file its list names, so the list is
// read here and each name becomes a read, taken against the command's folder as the tool takes
// it. A list only known when the command runs (stdin, `-`, too large, not a regular file) makes
// the command opaque: its names cannot be checked.
import { readFileSync, statSync } from "node:fs";
import { hasOption, readAll, type Operands } from "../command-options.ts";

const MAX_BYTES = 1 << 20;
// GNU: `HASH  NAME`, `HASH *NAME` (a leading `\` escapes the name), or the BSD tag `ALGO (NAME) = HASH`.
const LINE = /^\\?(?:[0-9a-fA-F]+ [ *](.+)|[A-Z0-9a-z-]+ \((.+)\) = [0-9a-fA-F]+)$/;

export const checksumOperands: Operands = (o, s) => {
  if (!hasOption(o, "-c", "--check")) return readAll(o, s);
  if (o.operands.length === 0) return s.opaque("the checksum tool checks the files named on its input");
  for (const list of o.operands) {
    s.read(list);
    const names = listedNames(s.resolve(list));
    if (names === undefined) return s.opaque(`the checksum tool checks the files ${list} names, which rein cannot read`);
    for (const name of names) s.read(name);
  }
};

function listedNames(path: string | undefined): string[] | undefined {
  if (path === undefined) return undefined;
  try {
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_BYTES) return undefined;
    const names: string[] = [];
    for (const line of readFileSync(path, "utf8").split("\n")) {
      const match = LINE.exec(line.replace(/\r$/, ""));
      const name = match?.[1] ?? match?.[2];
      if (name === undefined) continue;
      names.push(line.startsWith("\\") ? name.replace(/\\n/g, "\n").replace(/\\\\/g, "\\") : name);
    }
    return names;
  } catch {
    return undefined;
  }
}
