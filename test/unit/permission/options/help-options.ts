// The options a program's `--help` lists, in the GNU (`  -o, --output=FILE   ...`), util-linux
// (` -e, --format <format>`), binutils (`  -a - --all`), clap (`    -A, --after-context <NUM>`) and
// plain (`  -c    ...`) formats: an option line starts, after at most eight blanks, with `-`; its
// option column ends at the first run of two blanks (or a tab) before the description.
const OPTION = /(?<=^|[\s,|[/])(--?[A-Za-z0-9#][A-Za-z0-9_-]*)/g;

export function helpOptions(help: string): string[] {
  const found = new Set<string>();
  for (const line of help.split("\n")) {
    const m = /^( {0,8}|\t)(-.*)$/.exec(line);
    if (!m) continue;
    const column = m[2]!.split(/ {2,}|\t/)[0]!;
    for (const [option] of column.matchAll(OPTION)) {
      // `-NUM`, `-<digits>` placeholders and `-` as "stdin" are not options.
      if (option === "-" || /^-\d+$/.test(option) || /^-[A-Z]{2,}$/.test(option) || option === "--") continue;
      found.add(option.replace(/-+$/, ""));
    }
  }
  return [...found];
}
