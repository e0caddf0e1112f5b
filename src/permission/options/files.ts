// Option tables of the tools that read files byte by byte or side by side: diff, cmp, file, od-like
// dumps, strings, column, tree.
import { optionTable } from "./table.ts";

const FORMATS = ["old", "new", "unchanged", "changed"];

export const DIFF = optionTable({
  harmless: `--normal -q --brief -s --report-identical-files -c -C= --context[=] -u -U= --unified[=] -e --ed -n --rcs
    -y --side-by-side -W= --width= --left-column --suppress-common-lines -p --show-c-function -F=
    --show-function-line= --label= -t --expand-tabs -T --initial-tab --tabsize= --suppress-blank-empty -l --paginate
    -r --recursive --no-dereference -N --new-file --unidirectional-new-file --ignore-file-name-case
    --no-ignore-file-name-case -x= --exclude= -S= --starting-file= -i --ignore-case -E --ignore-tab-expansion -Z
    --ignore-trailing-space -b --ignore-space-change -w --ignore-all-space -B --ignore-blank-lines -I=
    --ignore-matching-lines= -a --text --strip-trailing-cr -D= --ifdef= --line-format= -d --minimal
    --horizon-lines= --speed-large-files --color[=] --palette= -v --version --help --binary --inhibit-hunk-merge
    --forward-ed
    ${FORMATS.map((f) => `--${f}-group-format=`).join(" ")} ${FORMATS.slice(0, 3).map((f) => `--${f}-line-format=`).join(" ")}`,
  numeric: true,
  read: "-X= --exclude-from= --from-file= --to-file=",
});

export const CMP = optionTable({
  harmless: `-b --print-bytes --print-chars -i= --ignore-initial= -l --verbose -n= --bytes= -s --quiet|--silent -v --version
    --help`,
});

// file -C compiles a magic file into the current folder.
export const FILE = optionTable({
  harmless: `-v --version --help -z --uncompress -Z --uncompress-noreport -b --brief -c --checking-printout -e=
    --exclude= --exclude-quiet= -F= --separator= -i --mime --apple --extension --mime-type --mime-encoding -k
    --keep-going -l --list -L --dereference -h --no-dereference -n --no-buffer -N --no-pad -0 --print0 -p
    --preserve-date -P= --parameter= -r --raw -s --special-files -S --no-sandbox -d --debug`,
  read: "-m= --magic-file=",
  names: "-f= --files-from=",
  effect: "-C --compile",
});

export const HEXDUMP = optionTable({
  harmless: `-b --one-byte-octal -X --one-byte-hex -c --one-byte-char -C --canonical -d --two-bytes-decimal -o
    --two-bytes-octal -x --two-bytes-hex -L[=] --color[=] -e= --format= -n= --length= -s= --skip= -v --no-squeezing
    -h --help -V --version`,
  read: "-f= --format-file=",
});

export const STRINGS = optionTable({
  numeric: true,
  harmless: `-a --all -d --data -f --print-file-name -n= --bytes= -t= --radix= -w --include-all-whitespace -o -T=
    --target= -e= --encoding= --unicode= -U= -s= --output-separator= -h --help -v -V --version`,
});

export const COLUMN = optionTable({
  harmless: `-t --table -n= --table-name= -O= --table-order= -N= --table-columns= -l= --table-columns-limit= -E=
    --table-noextreme= -d --table-noheadings -e --table-header-repeat -H= --table-hide= -R= --table-right= -T=
    --table-truncate= -W= --table-wrap= -L --keep-empty-lines -J --json -r= --tree= -i= --tree-id= -p=
    --tree-parent= -c= --output-width= -o= --output-separator= -s= --separator= -x --fillrows -h --help -V --version`,
});

// tree 2: its own parser, long options in full; --fromfile reads the listing from the operands.
export const TREE = optionTable({
  abbreviations: false,
  harmless: `-a -d -l -f -x -L= -P= -I= --gitignore --ignore-case --matchdirs --metafirst --prune
    --info --noreport --charset= --filelimit= -q -N -Q -p -u -g -s -h --si --du -D --timefmt= -F
    --inodes --device -v -t -c -U -r --dirsfirst --filesfirst --sort= -i -A -S -n -C -X -J -H= -T= --nolinks
    --help --version`,
  // --hintro and --houtro print their file into the HTML; -R with -L writes 00Tree.html in each folder.
  read: "--infofile= --gitfile= --hintro= --houtro=",
  effect: "-R",
  write: "-o=",
  names: "--fromfile --fromtabfile",
});
