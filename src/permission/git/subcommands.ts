// The git subcommands that only read, with every option classed. A subcommand not here, an option
// a table does not know, or an operand that makes a mixed subcommand write (`git branch new`)
// leaves the command to the rules: it is not found read-only.
import { gitTable, type GitTable } from "./table.ts";

const COLOR = "--color[=] --no-color";

const DIFF = gitTable({
  harmless: `-p|-u|--patch -s|--no-patch -U|--unified= --output-indicator-new= --output-indicator-old= --output-indicator-context=
    --raw --patch-with-raw -t --indent-heuristic --no-indent-heuristic --minimal --patience --histogram --anchored=
    --diff-algorithm= --stat[=] --stat-width= --stat-name-width= --stat-graph-width= --stat-count= --compact-summary --numstat
    --shortstat -X|--dirstat[=] --cumulative --dirstat-by-file[=] --summary --patch-with-stat -z --name-only --name-status
    --submodule[=] ${COLOR} --color-moved[=] --no-color-moved --color-moved-ws= --no-color-moved-ws --word-diff[=]
    --word-diff-regex= --color-words[=] --no-renames --rename-empty --no-rename-empty --check --ws-error-highlight= --full-index
    --binary --abbrev[=] --no-abbrev -B|--break-rewrites[=] -M|--find-renames[=] -C|--find-copies[=]
    --find-copies-harder -D|--irreversible-delete -l= --diff-filter= -S= -G= --find-object= --pickaxe-all --pickaxe-regex
    --skip-to= --rotate-to= -R --relative[=] --no-relative -a|--text --ignore-cr-at-eol --ignore-space-at-eol
    -b|--ignore-space-change -w|--ignore-all-space --ignore-blank-lines -I|--ignore-matching-lines= --inter-hunk-context=
    -W|--function-context --exit-code --quiet --no-ext-diff --textconv --no-textconv --ignore-submodules[=] --src-prefix=
    --dst-prefix= --no-prefix --default-prefix --line-prefix= --ita-invisible-in-index --ita-visible-in-index --cached
    --staged --merge-base -1|--base -2|--ours -3|--theirs -0 --cc -c -m --dd --remerge-diff --diff-merges= --no-diff-merges
    --combined-all-paths --full-diff --no-index --follow`,
  read: "-O=",
  write: "--output=",
  runs: "--ext-diff",
});

const REVISIONS = gitTable(
  {
    harmless: `-n|--max-count= --skip= --since|--after= --until|--before= --since-as-filter= --max-age= --min-age= --author=
    --committer= --grep-reflog= --grep= --all-match --invert-grep -i|--regexp-ignore-case --basic-regexp -E|--extended-regexp
    -F|--fixed-strings -P|--perl-regexp --remove-empty --merges --no-merges --min-parents= --max-parents= --no-min-parents
    --no-max-parents --first-parent --exclude-first-parent-only --not --all --branches[=] --tags[=] --remotes[=] --glob=
    --exclude= --exclude-hidden= --reflog --alternate-refs --single-worktree --ignore-missing --bisect --stdin --cherry-mark
    --cherry-pick --left-only --right-only --cherry -g|--walk-reflogs --merge --boundary --simplify-by-decoration
    --show-pulls --full-history --dense --sparse --simplify-merges --ancestry-path[=] --date-order --author-date-order
    --topo-order --reverse --no-walk[=] --do-walk --pretty[=] --format= --abbrev-commit --no-abbrev-commit --oneline
    --encoding= --expand-tabs[=] --no-expand-tabs --notes[=] --no-notes --show-notes[=] --show-notes-by-default --standard-notes
    --no-standard-notes --show-signature --relative-date --date= --parents --children --left-right --graph
    --show-linear-break[=] --decorate[=] --no-decorate --decorate-refs= --decorate-refs-exclude= --clear-decorations --source
    --mailmap|--use-mailmap --no-mailmap|--no-use-mailmap --log-size -L= --count --objects --objects-edge --objects-edge-aggressive
    --unpacked --object-names --no-object-names --filter= --no-filter --filter-print-omitted --missing= --exclude-promisor-objects
    --timestamp --header --no-commit-header --commit-header --in-commit-order --indexed-objects --disk-usage[=] --end-of-options
    -v --verbose -q --quiet --no-use-mailmap`,
  },
  DIFF,
);

const SHORTLOG = gitTable({ harmless: "-s|--summary -n|--numbered -e|--email -c|--committer --group= --format= -w[=]" }, REVISIONS);

const STATUS = gitTable({
  harmless: `-s|--short -b|--branch --show-stash --porcelain[=] --long -v|--verbose -u|--untracked-files[=] --ignore-submodules[=]
    --ignored[=] -z --column[=] --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames[=]`,
});

const BLAME = gitTable({
  harmless: `-b --root --show-stats -L= -l -t -S= --reverse= --first-parent -p|--porcelain --line-porcelain --incremental
    --encoding= --date= --progress --no-progress -M[=] -C[=] --ignore-rev= -h -c --score-debug -f|--show-name -n|--show-number
    -s -e|--show-email -w --abbrev[=] --color-lines --color-by-age`,
  read: "--contents= --ignore-revs-file=",
});

const GREP = gitTable({
  harmless: `-i|--ignore-case -I --max-depth= -r|--recursive --no-recursive -w|--word-regexp -v|--invert-match -h -H --full-name
    -E|--extended-regexp -G|--basic-regexp -P|--perl-regexp -F|--fixed-strings -n|--line-number --column -l|--files-with-matches|--name-only
    -L|--files-without-match -z|--null -o|--only-matching -c|--count ${COLOR} --break --heading -p|--show-function -C|--context=
    -A|--after-context= -B|--before-context= -W|--function-context --threads= -e= --and --or --not --all-match -q|--quiet
    --cached --untracked --no-index --exclude-standard --no-exclude-standard --recurse-submodules --textconv --no-textconv
    -a|--text -m|--max-count= --end-of-options`,
  read: "-f=",
  runs: "-O|--open-files-in-pager[=]",
});

const LS_FILES = gitTable({
  harmless: `-c|--cached -d|--deleted -m|--modified -o|--others -i|--ignored -s|--stage -u|--unmerged -k|--killed -z -t -v -f
    --directory --no-empty-directory --eol --full-name --recurse-submodules --abbrev[=] --debug --deduplicate -x|--exclude=
    --exclude-per-directory= --exclude-standard --error-unmatch --with-tree= --sparse --format=`,
  read: "-X|--exclude-from=",
});

const LS_TREE = gitTable({ harmless: "-d -r -t -l|--long -z --name-only --name-status --object-only --full-name --full-tree --abbrev[=] --format=" });

const REV_PARSE = gitTable({
  harmless: `--show-toplevel --show-prefix --show-cdup --git-dir --git-common-dir --absolute-git-dir --is-inside-work-tree
    --is-inside-git-dir --is-bare-repository --is-shallow-repository --abbrev-ref[=] --short[=] --verify -q|--quiet --symbolic
    --symbolic-full-name --all --branches[=] --tags[=] --remotes[=] --glob= --exclude= --exclude-hidden= --since= --after=
    --until= --before= --default= --prefix= --sq --sq-quote --local-env-vars --resolve-git-dir= --git-path= --path-format=
    --show-superproject-working-tree --shared-index-path --show-object-format[=] --show-ref-format --not --revs-only --no-revs
    --flags --no-flags --disambiguate= --end-of-options --parseopt --stop-at-non-option --keep-dashdash --stuck-long`,
});

const TABLES: Record<string, GitTable> = {
  status: STATUS,
  diff: DIFF,
  "diff-tree": gitTable({ harmless: "-r --root --no-commit-id --stdin -v --merge-base --always --pretty[=] --format= --no-commit-id" }, REVISIONS),
  "diff-index": gitTable({ harmless: "-m" }, DIFF),
  "diff-files": gitTable({ harmless: "-q" }, DIFF),
  log: REVISIONS,
  whatchanged: REVISIONS,
  show: REVISIONS,
  "rev-list": REVISIONS,
  shortlog: SHORTLOG,
  blame: BLAME,
  annotate: BLAME,
  grep: GREP,
  "ls-files": LS_FILES,
  "ls-tree": LS_TREE,
  "rev-parse": REV_PARSE,
  describe: gitTable({
    harmless: "--all --tags --contains --abbrev= --candidates= --exact-match --debug --long --match= --exclude= --always --first-parent --dirty[=] --broken[=]",
  }),
  "show-ref": gitTable({ harmless: "--head --branches --heads --tags -d|--dereference -s|--hash[=] --abbrev[=] --verify --exists -q|--quiet" }),
  "for-each-ref": gitTable({
    harmless: `--count= --sort= --format= ${COLOR} -s|--shell -p|--perl --python --tcl --points-at= --merged[=] --no-merged[=]
    --contains[=] --no-contains[=] --ignore-case --omit-empty --exclude= --include-root-refs`,
  }),
  "cat-file": gitTable({
    harmless: `-t -s -e -p --textconv --filters --path= --batch[=] --batch-check[=] --batch-command[=] --batch-all-objects --buffer
    --follow-symlinks --unordered -Z --allow-unknown-type --use-mailmap --mailmap --no-mailmap`,
  }),
  "merge-base": gitTable({ harmless: "-a|--all --octopus --independent --is-ancestor --fork-point" }),
  "name-rev": gitTable({ harmless: "--tags --refs= --exclude= --all --stdin --annotate-stdin --name-only --no-undefined --always" }),
  "count-objects": gitTable({ harmless: "-v|--verbose -H|--human-readable" }),
  version: gitTable({ harmless: "--build-options" }),
  "check-ignore": gitTable({ harmless: "-q|--quiet -v|--verbose -n|--non-matching --no-index -z --stdin" }),
  "check-attr": gitTable({ harmless: "-a|--all --cached --stdin -z --source=" }),
  "check-ref-format": gitTable({ harmless: "--normalize --allow-onelevel --no-allow-onelevel --refspec-pattern --branch" }),
  "verify-pack": gitTable({ harmless: "-v|--verbose -s|--stat-only" }),
  "symbolic-ref": gitTable({ harmless: "-q|--quiet --short --no-recurse --recurse" }),
  var: gitTable({ harmless: "-l" }),
  "show-branch": gitTable({
    harmless: `-a|--all -r|--remotes --topo-order --date-order --current --sparse --more= --list --independent --merge-base --no-name
    --sha1-name --topics -g|--reflog[=] ${COLOR}`,
  }),
  cherry: gitTable({ harmless: "-v --abbrev[=]" }),
  "range-diff": gitTable({ harmless: "--creation-factor= --no-dual-color --left-only --right-only --no-notes --notes[=]" }, DIFF),
};

// Subcommands with read-only forms and writing ones; the form decides.
const BRANCH = gitTable({
  harmless: `-a|--all -r|--remotes -v|-vv|--verbose -l|--list --show-current --contains[=] --no-contains[=] --merged[=] --no-merged[=]
    --points-at= --sort= --format= ${COLOR} --column[=] --no-column --abbrev= --no-abbrev -i|--ignore-case --omit-empty -q|--quiet`,
});
const TAG = gitTable({
  harmless: `-l|--list -n[=] --sort= --contains[=] --no-contains[=] --merged[=] --no-merged[=] --points-at= --format= ${COLOR}
    --column[=] --no-column -i|--ignore-case --omit-empty`,
});
const STASH_SHOW = gitTable({ harmless: "-u|--include-untracked --only-untracked" }, DIFF);
const CONFIG_READ = gitTable({
  harmless: `--get --get-all --get-regexp --get-urlmatch --get-color --get-colorbool -l|--list --show-origin --show-scope --name-only
    -z|--null --type= --bool --int --bool-or-int --path --expiry-date --default= --global --system --local --worktree
    --includes --no-includes --blob= --all --regexp --value= --fixed-value --url=`,
  read: "-f|--file=",
});
const REMOTE = gitTable({ harmless: "-v|--verbose -n --push --all" });
const WORKTREE_LIST = gitTable({ harmless: "--porcelain -v|--verbose -z --expire=" });

export type Form = { table: GitTable; /** the words after the subcommand that name the form (`stash list`) */ skip: number } | undefined;

/** The table for the read-only form of `git <sub> <args>`, or undefined when the form can write. */
export function readOnlyForm(sub: string, args: readonly string[]): Form {
  const table = TABLES[sub];
  if (table) return { table, skip: 0 };
  const first = args[0];
  switch (sub) {
    case "branch":
      return listing(args, BRANCH, ["-l", "--list", "--show-current"]) ? { table: BRANCH, skip: 0 } : undefined;
    case "tag":
      return listing(args, TAG, ["-l", "--list"]) ? { table: TAG, skip: 0 } : undefined;
    case "stash":
      if (first === "list") return { table: REVISIONS, skip: 1 };
      if (first === "show") return { table: STASH_SHOW, skip: 1 };
      return undefined;
    case "remote":
      // `git remote -v add ...` still adds: only a bare listing is read-only.
      if (args.every((arg) => arg === "-v" || arg === "--verbose")) return { table: REMOTE, skip: 0 };
      if (first === "get-url") return { table: REMOTE, skip: 1 };
      if (first === "show" && args.includes("-n")) return { table: REMOTE, skip: 1 };
      return undefined;
    case "worktree":
      return first === "list" ? { table: WORKTREE_LIST, skip: 1 } : undefined;
    case "reflog":
      if (first === undefined || first.startsWith("-")) return { table: REVISIONS, skip: 0 };
      return first === "show" ? { table: REVISIONS, skip: 1 } : undefined;
    case "config":
      return configRead(args) ? { table: CONFIG_READ, skip: first === "get" || first === "list" ? 1 : 0 } : undefined;
  }
  return undefined;
}

// `git branch` and `git tag` list when they are given no operand, or a listing option that makes
// the operands patterns.
function listing(args: readonly string[], table: GitTable, listOptions: string[]): boolean {
  const valued = new Set(["--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format", "--abbrev"]);
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (listOptions.some((o) => arg === o || (o === "-l" && /^-[a-z]*l[a-z]*$/.test(arg)))) return true;
    if (valued.has(arg)) i++;
    else if (!arg.startsWith("-")) operands++;
  }
  return operands === 0 && table.options.size > 0;
}

// `git config NAME` and `git config --get NAME` read; NAME VALUE, --unset, --add, --edit... write.
function configRead(args: readonly string[]): boolean {
  if (args[0] === "get" || args[0] === "list") return true;
  if (args.some((arg) => /^(?:--(?:unset|unset-all|add|replace-all|rename-section|remove-section|edit)|-e)$/.test(arg))) return false;
  const operands = args.filter((arg, i) => !arg.startsWith("-") && !/^(?:-f|--file|--blob|--type|--default)$/.test(args[i - 1] ?? ""));
  const getting = args.some((arg) => /^--(?:get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list)$|^-l$/.test(arg));
  return getting || operands.length === 1;
}
