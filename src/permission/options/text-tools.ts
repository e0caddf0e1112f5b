// Option tables of more read-only text tools (GNU coreutils, util-linux) and of a few that only
// print facts about the machine.
import { optionTable } from "./table.ts";

const INFO = "--help --version";

export const TAC = optionTable({ harmless: `-b --before -r --regex -s= --separator= ${INFO}` });
export const PASTE = optionTable({ harmless: `-d= --delimiters= -s --serial -z --zero-terminated ${INFO}` });
export const COMM = optionTable({
  harmless: `-1 -2 -3 --check-order --nocheck-order --output-delimiter= --total -z --zero-terminated ${INFO}`,
});
export const JOIN = optionTable({
  harmless: `-a= -e= -i --ignore-case -j= -o= -t= -v= -1= -2= --check-order --nocheck-order --header -z
    --zero-terminated ${INFO}`,
});
export const FOLD = optionTable({ numeric: true, harmless: `-b --bytes -s --spaces -w= --width= ${INFO}` });
export const REV = optionTable({ harmless: "-h --help -V --version -0 --zero" });
export const EXPAND = optionTable({ numeric: true, harmless: `-i --initial -t= --tabs= ${INFO}` });
export const UNEXPAND = optionTable({ numeric: true, harmless: `-a --all --first-only -t= --tabs= ${INFO}` });
export const FMT = optionTable({
  numeric: true,
  harmless: `-c --crown-margin -p= --prefix= -s --split-only -t --tagged-paragraph -u --uniform-spacing -w= --width= -g=
    --goal= ${INFO}`,
});
export const NPROC = optionTable({ harmless: `--all --ignore= ${INFO}` });
export const UPTIME = optionTable({ harmless: "-p --pretty -h --help -s --since -V --version" });
// Their arguments are durations, numbers and expressions: nothing they are given reads a file.
export const INFO_ONLY = optionTable({ harmless: INFO });
