// Option tables of the GNU coreutils the defaults allow (as in coreutils 9), and of a few small
// tools that behave like them. GNU getopt_long: unique prefixes of long options are accepted.
import { optionTable } from "./table.ts";

const INFO = "--help --version";

export const CAT = optionTable({
  harmless: `-A --show-all -b --number-nonblank -e -E --show-ends -n --number -s --squeeze-blank -t -T --show-tabs -u
    -v --show-nonprinting ${INFO}`,
});

export const HEAD = optionTable({
  numeric: true,
  harmless: `-c= --bytes= -n= --lines= -q --quiet|--silent -v --verbose -z --zero-terminated ${INFO}`,
});

export const TAIL = optionTable({
  numeric: true,
  harmless: `-c= --bytes= -f --follow[=] -F -n= --lines= --max-unchanged-stats= --pid= -q --quiet|--silent --retry -s=
    --sleep-interval= -v --verbose -z --zero-terminated ${INFO}`,
});

export const WC = optionTable({
  harmless: `-c --bytes -m --chars -l --lines -L --max-line-length -w --words --total= ${INFO}`,
  names: "--files0-from=",
});

export const SORT = optionTable({
  harmless: `-b --ignore-leading-blanks -d --dictionary-order -f --ignore-case -g --general-numeric-sort -i
    --ignore-nonprinting -M --month-sort -h --human-numeric-sort -n --numeric-sort -R --random-sort -r --reverse
    --sort= -V --version-sort --batch-size= -c --check[=] -C --debug -k= --key= -m --merge -s --stable -S=
    --buffer-size= -t= --field-separator= --parallel= -u --unique -z --zero-terminated ${INFO}`,
  read: "--random-source=",
  write: "-o= --output= -T= --temporary-directory=",
  runs: "--compress-program=",
  names: "--files0-from=",
});

export const UNIQ = optionTable({
  harmless: `-c --count -d --repeated -D --all-repeated[=] -f= --skip-fields= --group[=] -i --ignore-case -s=
    --skip-chars= -u --unique -z --zero-terminated -w= --check-chars= ${INFO}`,
});

export const CUT = optionTable({
  harmless: `-b= --bytes= -c= --characters= -d= --delimiter= -f= --fields= -n --complement -s --only-delimited
    --output-delimiter= -z --zero-terminated ${INFO}`,
});

export const TR = optionTable({
  harmless: `-c -C --complement -d --delete -s --squeeze-repeats -t --truncate-set1 ${INFO}`,
});

export const NL = optionTable({
  harmless: `-b= --body-numbering= -d= --section-delimiter= -f= --footer-numbering= -h= --header-numbering= -i=
    --line-increment= -l= --join-blank-lines= -n= --number-format= -p --no-renumber -s= --number-separator= -v=
    --starting-line-number= -w= --number-width= ${INFO}`,
});

export const BASENAME = optionTable({ harmless: `-a --multiple -s= --suffix= -z --zero ${INFO}` });
export const DIRNAME = optionTable({ harmless: `-z --zero ${INFO}` });

export const REALPATH = optionTable({
  harmless: `-e --canonicalize-existing -m --canonicalize-missing -L --logical -P --physical -q --quiet
    --relative-to= --relative-base= -s --strip|--no-symlinks -z --zero ${INFO}`,
});

export const READLINK = optionTable({
  harmless: `-f --canonicalize -e --canonicalize-existing -m --canonicalize-missing -n --no-newline -q --quiet -s
    --silent -v --verbose -z --zero ${INFO}`,
});

// md5sum -c reads the files a checksum list names (options/checksum-list.ts).
export const CHECKSUM = optionTable({
  harmless: `-b --binary -c --check --tag -t --text -z --zero --ignore-missing --quiet --status --strict -w --warn
    -l= --length= -a= --algorithm= --base64 --raw --untagged --debug ${INFO}`,
});

export const OD = optionTable({
  harmless: `-A= --address-radix= --endian= -j= --skip-bytes= -N= --read-bytes= -S= --strings[=] -t= --format= -v
    --output-duplicates -w[=] --width[=] --traditional -a -b -c -d -f -i -l -o -s -x ${INFO}`,
});

export const SEQ = optionTable({ numeric: true, harmless: `-f= --format= -s= --separator= -w --equal-width ${INFO}` });
export const PWD = optionTable({ harmless: `-L -P ${INFO}` });
export const WHOAMI = optionTable({ harmless: INFO });
export const ID = optionTable({
  harmless: `-a -Z --context -g --group -G --groups -n --name -r --real -u --user -z --zero ${INFO}`,
});
export const UNAME = optionTable({
  harmless: `-a --all -s --kernel-name -n --nodename -r --kernel-release -v --kernel-version -m --machine -p
    --processor -i --hardware-platform -o --operating-system ${INFO}`,
});

// date -f prints each line of a file it cannot read as a date: a read. -s and a MMDDhhmm operand set the clock.
export const DATE = optionTable({
  harmless: `-d= --date= --debug -I[=] --iso-8601[=] --resolution -R --rfc-email --rfc-3339= -u --utc|--universal
    ${INFO}`,
  read: "-f= --file= -r= --reference=",
  effect: "-s= --set=",
});

export const STAT = optionTable({
  harmless: `-L --dereference -f --file-system --cached= -c= --format= --printf= -t --terse ${INFO}`,
});

export const DU = optionTable({
  harmless: `-0 --null -a --all --apparent-size -B= --block-size= -b --bytes -c --total -D --dereference-args -d=
    --max-depth= -H -h --human-readable --inodes -k -L --dereference -l --count-links -m -P --no-dereference -S
    --separate-dirs --si -s --summarize -t= --threshold= --time[=] --time-style= --exclude= -x --one-file-system
    ${INFO}`,
  read: "-X= --exclude-from=",
  names: "--files0-from=",
});

export const DF = optionTable({
  harmless: `-a --all -B= --block-size= -h --human-readable -H --si -i --inodes -k -l --local --no-sync --output[=] -P
    --portability --sync --total -t= --type= -T --print-type -x= --exclude-type= -v ${INFO}`,
});

// Builtins and tools whose arguments are only printed or compared: nothing they are given reads a file.
export const ECHO = optionTable({ abbreviations: false, complete: false, harmless: "-n -e -E" });
export const PRINTF = optionTable({ abbreviations: false, stopAtOperand: true, harmless: "-v=" });
export const NOTHING = optionTable({ abbreviations: false, complete: false });

export const LS = optionTable({
  harmless: `-a --all -A --almost-all --author -b --escape --block-size= -B --ignore-backups -c -C --color[=] -d
    --directory -D --dired -f -F --classify[=] --file-type --format= --full-time -g --group-directories-first -G
    --no-group -h --human-readable --si -H --dereference-command-line --dereference-command-line-symlink-to-dir --hide=
    --hyperlink[=] --indicator-style= -i --inode -I= --ignore= -k --kibibytes -l -L --dereference -m -n
    --numeric-uid-gid -N --literal -o -p -q --hide-control-chars --show-control-chars -Q --quote-name --quoting-style=
    -r --reverse -R --recursive -s --size -S --sort= --time= --time-style= -t -T= --tabsize= -u -U -v -w= --width= -x
    -X -Z --context --zero -1 ${INFO}`,
});

export const SUM = optionTable({ harmless: `-r -s --sysv ${INFO}` });
