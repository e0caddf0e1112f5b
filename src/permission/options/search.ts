// Option tables of grep (GNU grep 3; egrep and fgrep are grep -E and grep -F) and ripgrep (13 and
// 14; clap's parser: long options must be spelled in full, short ones bundle).
import { optionTable } from "./table.ts";

export const GREP = optionTable({
  numeric: true,
  harmless: `-E --extended-regexp -F --fixed-strings -G --basic-regexp -P --perl-regexp -e= --regexp= -i -y
    --ignore-case --no-ignore-case -w --word-regexp -x --line-regexp -z --null-data -s --no-messages -v
    --invert-match -V --version --help -m= --max-count= -b --byte-offset -n --line-number --line-buffered -H
    --with-filename -h --no-filename --label= -o --only-matching -q --quiet|--silent --binary-files= -a --text -I
    -d= --directories= -D= --devices= -r --recursive -R --dereference-recursive --include= --exclude=
    --exclude-dir= -L --files-without-match -l --files-with-matches -c --count -T --initial-tab -Z --null -B=
    --before-context= -A= --after-context= -C= --context= --group-separator= --no-group-separator
    --color|--colour[=] -U --binary -u --unix-byte-offsets`,
  read: "-f= --file= --exclude-from=",
});

// Flags of ripgrep that also have a --no- form.
const RG_NEGATABLE = `auto-hybrid-regex binary block-buffered byte-offset column config context-separator crlf
  encoding fixed-strings follow glob-case-insensitive heading hidden ignore ignore-dot ignore-exclude ignore-files
  ignore-file-case-insensitive ignore-global ignore-messages ignore-parent ignore-vcs include-zero invert-match json
  line-buffered line-number messages mmap multiline multiline-dotall one-file-system pcre2 pcre2-unicode pre
  require-git search-zip sort-files stats text trim unicode filename max-columns-preview`;
const RG_FLAGS = `-A= --after-context= --auto-hybrid-regex -B= --before-context= --binary --block-buffered -b --byte-offset
    -s --case-sensitive --color= --colors= --column -C= --context= --context-separator= -c --count --count-matches
    --crlf --debug --trace --dfa-size-limit= -E= --encoding= --engine= --field-context-separator=
    --field-match-separator= --files -l --files-with-matches --files-without-match -F --fixed-strings -L --follow
    -g= --glob= --glob-case-insensitive -h --help --heading --hidden -. --iglob= -i --ignore-case
    --ignore-file-case-insensitive --include-zero -v --invert-match --json --line-buffered -n --line-number -x
    --line-regexp -M= --max-columns= --max-columns-preview -m= --max-count= -d= --max-depth=|--maxdepth=
    --max-filesize= --mmap -U --multiline --multiline-dotall -I --no-filename -N
    -0 --null --null-data -o --only-matching --passthru|--passthrough --path-separator= -P --pcre2
    --pcre2-version --pre-glob= -p --pretty -q --quiet --regex-size-limit= -e= --regexp= -r= --replace= -z
    --search-zip -S --smart-case --sort= --sortr= --sort-files --stats -a --text -j= --threads= --trim -t= --type=
    --type-add= --type-clear= --type-list -T= --type-not= -u --unrestricted -V --version --vimgrep -H
    --with-filename -w --word-regexp --hyperlink-format= --generate= --stop-on-nonmatch --ignore
    --no-ignore-dot-files --one-file-system`;
const rgNegations = RG_NEGATABLE.split(/\s+/)
  .filter((flag) => flag && !RG_FLAGS.split(/\s+/).includes(`--no-${flag}`))
  .map((flag) => `--no-${flag}`);

export const RG = optionTable({
  abbreviations: false,
  harmless: `${RG_FLAGS} ${rgNegations.join(" ")}`,
  read: "-f= --file= --ignore-file=",
  runs: "--pre= --hostname-bin=",
});
