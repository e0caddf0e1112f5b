// Everyday lines that loop over files or name a file through a variable the line just set (issue
// 13, item 8): the walk follows the values (shell/vars.ts, shell/loop.ts), so they run without asking.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RedTeamDirs } from "./fixture.ts";

export function setup(dirs: RedTeamDirs): void {
  const notes = join(dirs.workspace, "notes");
  mkdirSync(notes, { recursive: true });
  for (const name of ["a.txt", "b.txt", "c d.txt", "todo.md"]) writeFileSync(join(notes, name), "TODO: x\n");
}

export const benign = [
  'for f in *.ts; do wc -l "$f"; done',
  "for f in *.ts; do wc -l $f; done",
  'for f in src/*.ts; do echo "== $f"; head -n 20 "$f"; done',
  'for f in notes/*.txt; do cat "$f"; done',
  'for f in notes/*.txt notes/*.md; do grep -n TODO "$f"; done',
  'for f in notes/*; do head -1 "$f"; done',
  'for f in src/*.ts; do grep -c import "$f" || true; done',
  'for f in *.md; do wc -w "$f"; done',
  'for f in src/a.ts src/b.ts; do diff "$f" src/main.ts; done',
  'for f in a.ts b.ts; do [ -f "$f" ] && cat "$f"; done',
  'for f in notes/*.txt; do printf "%s: " "$f"; wc -l < "$f"; done',
  'for d in src notes; do ls "$d"; done',
  'for f in *.ts; do for g in src/*.ts; do cmp -s "$f" "$g" && echo same; done; done',
  'for f in notes/*.txt; do sort "$f" | uniq -c; done',
  'for f in src/*.ts; do tail -n 3 -- "$f"; done',
  'set -euo pipefail; for f in *.ts; do wc -l "$f"; done',
  'f=README.md; cat "$f"',
  "f=README.md; cat $f",
  'f=README.md; head -5 "${f}"',
  'file=src/a.ts; wc -l "$file" && grep -n import "$file"',
  'dir=src; ls "$dir"; cat "$dir/a.ts"',
  'dir=notes; grep -rn TODO "$dir"',
  'f="notes/c d.txt"; cat "$f"',
  'a=src/a.ts; b=src/b.ts; diff "$a" "$b"',
  'f=package.json && jq .name "$f"',
  'name=a; cat "src/$name.ts"',
  'f=README.md; n=$(wc -l < "$f"); echo "$f has $n lines"',
  'out=/dev/null; cat README.md > "$out"',
  'pattern=TODO; grep -rn "$pattern" src',
  'f=README.md; (cat "$f"; wc -l "$f")',
  'f=README.md; cat "$f" | head -3',
  'f=README.md; echo "$f"; sed -n 1,3p "$f"',
  'c=wc; $c -l README.md',
  'd=src; for f in "$d"/*.ts; do wc -l "$f"; done',
  'for f in $WS/notes/*.txt; do head -1 "$f"; done',
];
