// Per command: which flag values and operands are files read or written. Commands with an
// argument grammar of their own (find, tar, jq, git...) and unknown commands are in
// command-path-handlers.ts.
import { getopt, hasOption, optionValues, readAll, writeAll, type Operands, type PathHandler } from "./command-options.ts";
import { gitPaths } from "./git/paths.ts";
import { awkPaths, chmodPaths, curlPaths, ddPaths, findPaths, isRemote, jqPaths, lnPaths, tarPaths } from "./command-path-handlers.ts";

const readOrCwd: Operands = (o, s) => (o.operands.length > 0 ? readAll(o, s) : s.read("."));
const none: PathHandler = () => {};

// Copy-like: sources read, the destination (last operand or -t DIR) written; `move` also writes sources.
const copy =
  (move: boolean): Operands =>
  (o, s) => {
    const target = optionValues(o, "-t", "--target-directory");
    const sources = target.length > 0 ? o.operands : o.operands.slice(0, -1);
    const dests = target.length > 0 ? target : o.operands.slice(-1);
    sources.forEach((w) => s.read(w));
    if (move) sources.forEach((w) => s.write(w));
    dests.forEach((w) => s.write(w));
  };

// rsync and scp: only local operands; the last is the destination.
const transfer: Operands = (o, s) => {
  const local = (w: string) => !isRemote(w);
  if (o.operands.length === 1) return o.operands.filter(local).forEach((w) => s.read(w));
  o.operands.slice(0, -1).filter(local).forEach((w) => s.read(w));
  o.operands.slice(-1).filter(local).forEach((w) => s.write(w));
};

// grep-like: the first operand is the pattern unless one was given by a flag; no file: cwd if recursive.
const search =
  (patternFlags: string[], recursiveFlags: string[] | "always"): Operands =>
  (o, s) => {
    const files = hasOption(o, ...patternFlags) ? o.operands : o.operands.slice(1);
    if (files.length > 0) return files.forEach((w) => s.read(w));
    if (recursiveFlags === "always" || hasOption(o, ...recursiveFlags)) s.read(".");
  };

// sed: the first operand is the script unless -e/-f gave it; -i edits the files in place.
const sed: Operands = (o, s) => {
  const files = hasOption(o, "-e", "--expression", "-f", "--file") ? o.operands : o.operands.slice(1);
  files.forEach((w) => s.read(w));
  if (hasOption(o, "-i", "--in-place")) files.forEach((w) => s.write(w));
};

// Compressors replace their input with the output unless they only print, list or test.
const compress: Operands = (o, s) => {
  readAll(o, s);
  if (!hasOption(o, "-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test")) writeAll(o, s);
};

// uniq and xxd: an input file, then an output file.
const inOut: Operands = (o, s) => {
  if (o.operands[0] !== undefined) s.read(o.operands[0]);
  if (o.operands[1] !== undefined) s.write(o.operands[1]);
};
// chown and chgrp: the owner comes first, unless --reference gave it.
const afterOwner: Operands = (o, s) => (hasOption(o, "--reference") ? o.operands : o.operands.slice(1)).forEach((w) => s.write(w));
// less and more: `+cmd` is a command, not a file.
const pagerFiles: Operands = (o, s) => o.operands.filter((w) => !w.startsWith("+")).forEach((w) => s.read(w));

const GREP = {
  valued: `-e -m -A -B -C -d -D --regexp --max-count --after-context --before-context --context --label --include
    --exclude --exclude-dir --directories --devices --binary-files`,
  reads: "-f --file --exclude-from",
};
const GREP_PATTERN = ["-e", "--regexp", "-f", "--file"];
const COPY = { valued: "-t -S --target-directory --suffix" };
const HASHES = ["md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "shasum"];
const COMPRESSORS = ["gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4"];
const NO_FILES = ["echo", "printf", "true", "false", "pwd", "date", "whoami", "sleep", "which", "type", "basename", "dirname",
  "expr", "seq", "yes", "uname", "hostname", "id", "kill", "export", "unset", "alias", "cd", "test", "["];

export const COMMAND_PATHS: Record<string, PathHandler> = {
  ...Object.fromEntries(["cat", "tac", "zcat", "bzcat", "xzcat", "source", "."].map((c) => [c, getopt({}, readAll)])),
  ...Object.fromEntries(HASHES.map((c) => [c, getopt({ valued: "-a --algorithm" }, readAll)])),
  ...Object.fromEntries(COMPRESSORS.map((c) => [c, getopt({ valued: "-S --suffix -T --threads", writes: "-o" }, compress)])),
  ...Object.fromEntries(NO_FILES.map((c) => [c, none])),
  nl: getopt({ valued: "-b -d -f -h -i -l -n -s -v -w" }, readAll),
  head: getopt({ valued: "-n -c --lines --bytes" }, readAll),
  tail: getopt({ valued: "-n -c -s --lines --bytes --sleep-interval --pid --max-unchanged-stats" }, readAll),
  less: getopt({ valued: "-b -h -j -k -p -P -t -T -x -y -z -# --pattern --tag --tabs", writes: "-o -O --log-file --LOG-FILE" }, pagerFiles),
  more: getopt({ valued: "-n --lines" }, pagerFiles),
  bat: getopt({
    valued: `-l -H -r -m --language --highlight-line --line-range --style --theme --tabs --wrap --terminal-width
      --map-syntax --pager --color --decorations --paging`,
  }, readAll),
  base64: getopt({ valued: "-w --wrap" }, readAll),
  wc: getopt({ reads: "--files0-from" }, readAll),
  sort: getopt({
    valued: "-k -t -S -T --key --field-separator --buffer-size --temporary-directory --parallel --batch-size --compress-program",
    reads: "--files0-from",
    writes: "-o --output",
  }, readAll),
  uniq: getopt({ valued: "-f -s -w --skip-fields --skip-chars --check-chars" }, inOut),
  cut: getopt({ valued: "-b -c -d -f --bytes --characters --delimiter --fields --output-delimiter" }, readAll),
  grep: getopt(GREP, search(GREP_PATTERN, ["-r", "-R", "--recursive", "--dereference-recursive"])),
  egrep: getopt(GREP, search(GREP_PATTERN, ["-r", "-R", "--recursive", "--dereference-recursive"])),
  fgrep: getopt(GREP, search(GREP_PATTERN, ["-r", "-R", "--recursive", "--dereference-recursive"])),
  rg: getopt({
    valued: `-e -g -t -T -m -A -B -C -j -M -r -E -d --regexp --glob --iglob --type --type-not --type-add --type-clear
      --max-count --after-context --before-context --context --threads --max-columns --replace --encoding --max-depth
      --maxdepth --max-filesize --pre --pre-glob --sort --sortr --color --colors --context-separator
      --field-match-separator --field-context-separator --path-separator --dfa-size-limit --regex-size-limit --engine
      --hyperlink-format`,
    reads: "-f --file --ignore-file",
  }, search([...GREP_PATTERN, "--files", "--type-list"], "always")),
  ag: getopt({
    valued: `-A -B -C -G -g -m --after --before --context --file-search-regex --max-count --ignore --ignore-dir --depth
      --pager --workers`,
    reads: "-p --path-to-ignore",
  }, search(["-g"], "always")),
  ls: getopt({
    valued: `-I -w -T --ignore --hide --width --tabsize --format --sort --time --time-style --block-size --quoting-style
      --indicator-style`,
  }, readOrCwd),
  find: findPaths,
  diff: getopt({
    valued: `-C -U -F -I -L -x -S -W --label --exclude --ignore-matching-lines --show-function-line --starting-file
      --tabsize --width --horizon-lines --line-format --old-line-format --new-line-format --unchanged-line-format
      --old-group-format --new-group-format --changed-group-format --unchanged-group-format`,
    reads: "-X --exclude-from --from-file --to-file",
  }, readAll),
  cmp: getopt({ valued: "-i -n --ignore-initial --bytes" }, readAll),
  file: getopt({ valued: "-F -e -P --separator --exclude --exclude-quiet --parameter", reads: "-m -f --magic-file --files-from" }, readAll),
  stat: getopt({ valued: "-c --format --printf" }, readAll),
  du: getopt({
    valued: "-d -B -t --max-depth --block-size --threshold --exclude --time-style",
    reads: "-X --exclude-from --files0-from",
  }, readOrCwd),
  tree: getopt({ valued: "-L -P -I -H -T --charset --filelimit --timefmt --sort", writes: "-o" }, readOrCwd),
  od: getopt({ valued: "-A -j -N -t -S --address-radix --skip-bytes --read-bytes --format --strings --endian" }, readAll),
  xxd: getopt({ valued: "-c -g -l -n -o -s -R" }, inOut),
  hexdump: getopt({ valued: "-e -n -s", reads: "-f" }, readAll),
  hd: getopt({ valued: "-e -n -s", reads: "-f" }, readAll),
  strings: getopt({ valued: "-n -t -e -T -s --bytes --radix --encoding --target --output-separator" }, readAll),
  jq: jqPaths,
  sed: getopt({ valued: "-e -l --expression --line-length", reads: "-f --file", attached: "-i" }, sed),
  awk: awkPaths,
  gawk: awkPaths,
  mawk: awkPaths,
  nawk: awkPaths,
  cp: getopt(COPY, copy(false)),
  mv: getopt(COPY, copy(true)),
  install: getopt({ valued: "-m -o -g -S -t --mode --owner --group --suffix --target-directory --strip-program" }, (o, s) =>
    hasOption(o, "-d", "--directory") ? writeAll(o, s) : copy(false)(o, s),
  ),
  rsync: getopt({
    valued: `-e -f -T -B -M --rsh --exclude --include --filter --temp-dir --partial-dir --backup-dir --compare-dest
      --copy-dest --link-dest --chmod --chown --usermap --groupmap --timeout --contimeout --port --bwlimit --max-size
      --min-size --block-size --suffix --rsync-path --out-format --log-file-format --info --debug --iconv
      --checksum-choice --compress-choice --compress-level --modify-window --max-delete --stop-after --stop-at
      --sockopts --remote-option --protocol`,
    reads: "--exclude-from --include-from --files-from --password-file",
    writes: "--log-file",
  }, transfer),
  scp: getopt({ valued: "-c -J -l -o -P -S -D -X", reads: "-F -i" }, transfer),
  tar: tarPaths,
  dd: ddPaths,
  rm: getopt({}, writeAll),
  rmdir: getopt({}, writeAll),
  unlink: getopt({}, writeAll),
  shred: getopt({ valued: "-n -s --iterations --size", reads: "--random-source" }, writeAll),
  touch: getopt({ valued: "-d -t --date", reads: "-r --reference" }, writeAll),
  mkdir: getopt({ valued: "-m --mode" }, writeAll),
  truncate: getopt({ valued: "-s --size", reads: "-r --reference" }, writeAll),
  tee: getopt({}, writeAll),
  chmod: chmodPaths,
  chown: getopt({ valued: "--from", reads: "--reference" }, afterOwner),
  chgrp: getopt({ reads: "--reference" }, afterOwner),
  ln: lnPaths,
  zip: getopt({ valued: "-b -n -t -P -O -Z -s --password --out" }, (o, s) => {
    if (o.operands[0] !== undefined) s.write(o.operands[0]);
    o.operands.slice(1).forEach((w) => s.read(w));
  }),
  unzip: getopt({ valued: "-P", writes: "-d" }, (o, s) => {
    if (o.operands[0] !== undefined) s.read(o.operands[0]);
    if (!hasOption(o, "-d", "-l", "-t", "-p", "-Z", "-v")) s.write(".");
  }),
  git: gitPaths,
  curl: curlPaths,
  wget: getopt({
    valued: "-t -T -w -U --tries --timeout --wait --user-agent --header --user --password",
    reads: "-i --input-file --post-file --body-file --load-cookies --certificate --private-key --ca-certificate",
    writes: "-O --output-document -o --output-file -a --append-output -P --directory-prefix --save-cookies",
  }, (o, s) => {
    if (!hasOption(o, "-O", "--output-document", "-P", "--directory-prefix", "--spider")) s.write(".");
  }),
};
