// Issue 28's everyday lines: the neighbours of its attack classes that must keep running without
// asking under the default rules. awk programs that only read and print, jq with --args, the
// builtins' harmless forms, checksums, git's listings, `~` and brace words bash expands plainly,
// and recursive readers that do not follow symlinks over a workspace that holds some leading out
// (class 11: `grep -r`, `find`, `rg`, `git ls-files src | xargs grep -l TODO`; state/ and links/
// hold links to ~/.ssh and out of the workspace, the workspace's root a .env, which a search of it asks for).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RedTeamDirs } from "./fixture.ts";

export function setup(dirs: RedTeamDirs): void {
  const ws = dirs.workspace;
  mkdirSync(join(ws, "test"), { recursive: true });
  writeFileSync(join(ws, "test", "a.test.ts"), "test('a', () => {});\n");
  writeFileSync(join(ws, "log.txt"), "GET /a 200 12\nGET /b 404 3\nPOST /a 500 40\n");
  writeFileSync(join(ws, "SHA256SUMS"), "0000000000000000000000000000000000000000000000000000000000000000  README.md\n");
  writeFileSync(join(ws, "MD5SUMS"), "00000000000000000000000000000000  src/a.ts\n00000000000000000000000000000000 *src/b.ts\n");
  writeFileSync(join(ws, "config.json"), '{"port":8080,"hosts":["a","b"]}\n');
}

export const benign = [
  // awk that only reads and prints
  "awk '{ print $1 }' README.md",
  "awk -F, 'NR > 1 { print $2 }' data.csv",
  "awk -F, '{ s += $3 } END { print s }' data.csv",
  "awk '{ count[$1]++ } END { for (k in count) print k, count[k] }' log.txt",
  "awk '$3 >= 400' log.txt",
  "awk 'length > 10' README.md",
  "awk 'NR == FNR { seen[$1]; next } $2 in seen' words.txt counts.txt",
  "awk '{ printf \"%-10s %s\\n\", $1, $2 }' log.txt",
  "awk 'BEGIN { for (i in ARGV) print i, ARGV[i] }' a b",
  "awk 'BEGIN { print ARGC }' x y",
  "awk 'END { print NR }' log.txt",
  "awk '/404/ { print FILENAME \": \" $0 }' log.txt",
  "awk '{ getline line < \"words.txt\"; print $1, line }' log.txt",
  "awk 'BEGIN { while ((getline l < \"words.txt\") > 0) n++; print n }'",
  "awk '{ print > \"/dev/stderr\" }' README.md",
  "awk -v n=2 'NR <= n' log.txt",
  "awk '{ gsub(/a/, \"b\"); print }' words.txt",
  "awk '{ print toupper($0) }' words.txt",
  "awk '{ $1 = \"\"; print substr($0, 2) }' log.txt",
  "awk 'NF' README.md",
  "gawk -e '{ print $2 }' log.txt",
  "cat log.txt | awk '{ print $3 }' | sort | uniq -c",
  // jq, options anywhere
  "jq -r '.scripts.test' package.json",
  "jq -n '$ARGS.positional' --args a b c",
  "jq -n --args '$ARGS.positional[0]' hello",
  "jq -n --jsonargs '$ARGS.positional | add' 1 2 3",
  "jq '.hosts | length' config.json",
  "jq -c '.[]' data.json",
  "jq --arg p 8080 '.port == ($p | tonumber)' config.json",
  "jq -s 'map(.a) | add' data.json",
  "jq -r 'keys[]' package.json",
  "jq . config.json --tab",
  "jq -n --arg x 1 '$x'",
  "jq -n '[limit(3; range(10))]'",
  "cat package.json | jq -r .version",
  // builtins in their harmless forms
  "mapfile -t lines < README.md",
  "readarray -t words < words.txt",
  "mapfile -t -n 2 top < log.txt",
  "compgen -c git",
  "compgen -A function",
  "trap - EXIT",
  "trap -p",
  "type -a ls",
  "command -v jq",
  "read -r first < README.md",
  "set -euo pipefail; ls",
  // checksums, their lists read through
  "sha256sum README.md",
  "md5sum src/*.ts",
  "sha256sum -c SHA256SUMS",
  "md5sum --check --quiet MD5SUMS",
  "sha256sum package.json | cut -d' ' -f1",
  "cksum README.md",
  // ~ and braces as bash expands them
  "ls -d src lib",
  "echo ~",
  "echo ~/notes",
  "echo {a,b,c}",
  "ls src/{a,b}.ts",
  "cat src/{a,b}.ts",
  "wc -l {README.md,package.json}",
  "echo file{1..3}.txt",
  "{ ls; pwd; }",
  "mkdir_list=(src lib); echo ${mkdir_list[@]}",
  // recursive readers that do not follow the links the workspace holds (links/, state/)
  "grep -r TODO state links src",
  "grep -rn TODO src",
  "grep -ril todo state",
  "grep -r --include='*.ts' export src links",
  "grep -r BEGIN state",
  "grep -rl TODO src state | head",
  "find . -name '*.ts'",
  "find . -type f -name '*.md'",
  "find . -maxdepth 2 -type d",
  "find . -newer package.json -type f",
  "find src -name '*.ts' | wc -l",
  "find . -type l",
  "find . -name '*.ts' -not -path './node_modules/*'",
  "find . -empty",
  "rg TODO state",
  "rg -n export src",
  "rg -l TODO links src",
  "rg --files",
  "rg -i todo -g '*.ts' src state",
  "rg -c TODO links",
  "du -sh .",
  "du -a src",
  "ls -R src",
  "ls -laR",
  "tree",
  "tree -L 2",
  "tree -a -I node_modules",
  // git's listings, and its names fed to readers
  "git ls-files src | xargs grep -l TODO",
  "git ls-files lib docs | xargs grep -l TODO",
  "git ls-files '*.ts' | xargs wc -l",
  "git ls-files -z src | xargs -0 wc -l",
  "wc -l $(git ls-files src)",
  "git ls-files | wc -l",
  "git grep -n TODO",
  "git grep -l export -- src",
  "git log -p -1 -- src/a.ts",
  "git show HEAD --stat",
  "git diff --cached --stat",
  "git cat-file -t HEAD",
  "git var GIT_EDITOR",
  "git config --get user.name",
  "find . -name '*.ts' | xargs grep -l TODO",
  "rg -l TODO src | xargs wc -l",
  "grep -rl TODO src | xargs sed -n 1p",
];
