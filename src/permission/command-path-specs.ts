// Per command: which flag values and operands are files read or written. The commands the
// defaults allow are read with complete option tables (options/tabled-paths.ts), the commands
// people allow-list to run a project's scripts with tables of what changes what runs
// (options/runner-paths.ts); the rest here, with the options that name files. Commands with an
// argument grammar of their own (tar, git...) and unknown commands are in command-path-handlers.ts.
import { getopt, hasOption, optionValues, readAll, writeAll, type Operands, type PathHandler } from "./command-options.ts";
import { chmodPaths, curlPaths, ddPaths, isRemote, lnPaths, tarPaths } from "./command-path-handlers.ts";
import { gitPaths } from "./git/paths.ts";
import { RUNNER_PATHS } from "./options/runner-paths.ts";
import { search, TABLED_PATHS } from "./options/tabled-paths.ts";

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

// Compressors replace their input with the output unless they only print, list or test.
const compress: Operands = (o, s) => {
  readAll(o, s);
  if (!hasOption(o, "-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test")) writeAll(o, s);
};

// chown and chgrp: the owner comes first, unless --reference gave it.
const afterOwner: Operands = (o, s) => (hasOption(o, "--reference") ? o.operands : o.operands.slice(1)).forEach((w) => s.write(w));
// less and more: `+cmd` is a command, not a file.
const pagerFiles: Operands = (o, s) => o.operands.filter((w) => !w.startsWith("+")).forEach((w) => s.read(w));

const COPY = { valued: "-t -S --target-directory --suffix" };
const COMPRESSORS = ["gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4"];
const NO_FILES = ["yes", "kill", "export", "unset", "alias", "cd"];

export const COMMAND_PATHS: Record<string, PathHandler> = {
  ...TABLED_PATHS,
  ...RUNNER_PATHS,
  ...Object.fromEntries(["tac", "zcat", "bzcat", "xzcat", "source", "."].map((c) => [c, getopt({}, readAll)])),
  ...Object.fromEntries(COMPRESSORS.map((c) => [c, getopt({ valued: "-S --suffix -T --threads", writes: "-o" }, compress)])),
  ...Object.fromEntries(NO_FILES.map((c) => [c, none])),
  less: getopt({ valued: "-b -h -j -k -p -P -t -T -x -y -z -# --pattern --tag --tabs", writes: "-o -O --log-file --LOG-FILE" }, pagerFiles),
  more: getopt({ valued: "-n --lines" }, pagerFiles),
  bat: getopt({
    valued: `-l -H -r -m --language --highlight-line --line-range --style --theme --tabs --wrap --terminal-width
      --map-syntax --pager --color --decorations --paging`,
  }, readAll),
  base64: getopt({ valued: "-w --wrap" }, readAll),
  ag: getopt({
    valued: `-A -B -C -G -g -m --after --before --context --file-search-regex --max-count --ignore --ignore-dir --depth
      --pager --workers`,
    reads: "-p --path-to-ignore",
  }, search(["-g"], "always")),
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
