// Commands whose arguments need more than getopt rules to tell files apart, and unknown commands.
import { dirname } from "node:path";
import { getopt, hasOption, optionValues, parseOptions, type PathHandler, type PathSink } from "./command-options.ts";
import { optionTable } from "./options/table.ts";

/** Unknown commands: every argument that looks like a path is read (also `--opt=PATH`, `@PATH`, `a:b` parts). */
export const genericPaths: PathHandler = (args, sink) => {
  for (const word of args) pathCandidates(word).forEach((path) => sink.read(path));
};

function pathCandidates(word: string): string[] {
  let value = word;
  if (value.startsWith("--")) value = value.includes("=") ? value.slice(value.indexOf("=") + 1) : "";
  else if (value.startsWith("-")) return [];
  else if (/^[A-Za-z_][\w.-]*=/.test(value)) value = value.slice(value.indexOf("=") + 1);
  if (value.startsWith("@")) value = value.slice(1);
  // `-v ~/.ssh:/root/.ssh`, `PATH=a:b`: each part may be a path.
  const parts = value.includes(":") && !isUrl(value) && !isRemote(value) ? [value, ...value.split(":")] : [value];
  return parts.filter(looksLikePath);
}

/** Starts with `/`, `./`, `../`, `~`, is `.` or `..`, or holds a `/`; not a URL nor `host:path`. */
export function looksLikePath(word: string): boolean {
  if (word === "." || word === "..") return true;
  if (isUrl(word) || isRemote(word)) return false;
  return word.startsWith("/") || word.startsWith("~") || word.includes("/");
}

/** `host:path`, `user@host:path`, `rsync://host/x`, `host::module`: not a local file (rsync, scp). */
export function isRemote(word: string): boolean {
  return /^[^/]+:/.test(word);
}

function isUrl(word: string): boolean {
  return /^[a-z][a-z\d+.-]*:\/\//i.test(word);
}

/** dd: `if=FILE` is read, `of=FILE` written. */
export const ddPaths: PathHandler = (args, s) => {
  for (const arg of args) {
    if (arg.startsWith("if=")) s.read(arg.slice(3));
    if (arg.startsWith("of=")) s.write(arg.slice(3));
  }
};

const CHMOD = optionTable({ complete: false, read: "--reference=" });

// chmod's mode may look like a flag (`chmod -x file`); otherwise it is the first operand.
export const chmodPaths: PathHandler = (args, s) => {
  const modeFlag = args.findIndex((w) => /^-[rwxXst]+$/.test(w));
  const options = parseOptions(modeFlag >= 0 ? args.filter((_, i) => i !== modeFlag) : args, CHMOD);
  optionValues(options, "--reference").forEach((w) => s.read(w));
  const fileOperands = modeFlag >= 0 || hasOption(options, "--reference") ? options.operands : options.operands.slice(1);
  fileOperands.forEach((w) => s.write(w));
};

// ln: the link is written; its target is read, since a link made now is read through later. A
// relative symlink target is taken from the link's folder (or the destination folder).
export const lnPaths = getopt({ valued: "-t -S --target-directory --suffix" }, (o, s) => {
  const dirs = optionValues(o, "-t", "--target-directory");
  const single = dirs.length === 0 && o.operands.length === 1;
  const targets = dirs.length > 0 || single ? o.operands : o.operands.slice(0, -1);
  const links = dirs.length > 0 ? dirs : single ? ["."] : o.operands.slice(-1);
  links.forEach((w) => s.write(w));
  for (const target of targets) {
    s.read(target);
    if (!hasOption(o, "-s", "--symbolic")) continue;
    for (const link of links.map((w) => s.resolve(w))) {
      if (link !== undefined) [link, dirname(link)].forEach((base) => s.read(target, base));
    }
  }
});

// tar: -c/-r/-u/-A read the operands (from the current -C folder) and write the archive; -x reads
// the archive and writes the -C folders (or cwd); -t/-d read it. Old style `tar czf a.tgz dir` too.
const TAR_VALUED = `-f -C -T -X -b -H -K -N -g -L -V -I --file --directory --files-from --exclude-from --exclude
  --transform --xform --use-compress-program --blocking-factor --format --owner --group --mode --mtime --newer
  --after-date --newer-mtime --label --volno-file --index-file --checkpoint-action --to-command --suffix
  --strip-components --record-size --tape-length --rsh-command --info-script --new-volume-script --listed-incremental
  --exclude-tag --exclude-tag-all --exclude-tag-under --sort --warning --owner-map --group-map`.split(/\s+/);
const TAR = optionTable({ complete: false, harmless: TAR_VALUED.map((flag) => `${flag}=`).join(" ") });

export const tarPaths: PathHandler = (args, s) => {
  const first = args[0];
  const words = first !== undefined && !first.startsWith("-") ? oldStyleTar(first, args.slice(1)) : args;
  const o = parseOptions(words, TAR);
  const creates = hasOption(o, "-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate");
  const writesArchive = creates || hasOption(o, "--delete");
  const extracts = hasOption(o, "-x", "--extract", "--get");
  const archives = optionValues(o, "-f", "--file");
  optionValues(o, "-T", "--files-from", "-X", "--exclude-from").forEach((w) => s.read(w));
  optionValues(o, "-g", "--listed-incremental", "--index-file").forEach((w) => s.write(w));
  let dir = s.cwd;
  const dirs: string[] = [];
  for (const item of o.items) {
    if ("flag" in item && (item.flag === "-C" || item.flag === "--directory") && item.value !== undefined) {
      dir = s.resolve(item.value, dir) ?? dir;
      dirs.push(dir);
    }
    if ("operand" in item && creates) s.read(item.operand, dir);
    if ("operand" in item && creates && hasOption(o, "--remove-files")) s.write(item.operand, dir);
  }
  archives.forEach((w) => (writesArchive ? s.write(w) : s.read(w)));
  const outputDirs = dirs.length > 0 ? dirs : [s.cwd];
  if (extracts && !hasOption(o, "-O", "--to-stdout")) outputDirs.forEach((d) => s.write(d));
  if (hasOption(o, "-d", "--diff", "--compare")) outputDirs.forEach((d) => s.read(d));
};

function oldStyleTar(bundle: string, rest: readonly string[]): string[] {
  const words: string[] = [];
  let next = 0;
  for (const letter of bundle) {
    words.push(`-${letter}`);
    if (TAR_VALUED.includes(`-${letter}`) && next < rest.length) words.push(rest[next++]!);
  }
  return [...words, ...rest.slice(next)];
}

// curl: -o/-D/-c write, -T/-K read, `@FILE` in -d/--data*/--json and `name=@FILE`/`name=<FILE` in
// -F read; -O writes into cwd; URLs and other path-like words as for an unknown command.
const CURL_DATA = ["-d", "--data", "--data-binary", "--data-urlencode", "--json", "-F", "--form"];
export const curlPaths = getopt(
  {
    valued: `${CURL_DATA.join(" ")} -H -X -u -A -e -m -x -r -w -b -E --header --request --user --user-agent --referer
      --max-time --proxy --range --write-out --cookie --cert --key --connect-timeout --retry --data-raw --url --resolve
      --interface --limit-rate --max-filesize`,
    reads: "-T --upload-file -K --config --cacert",
    writes: "-o --output -D --dump-header -c --cookie-jar --trace --trace-ascii --stderr --libcurl --output-dir",
  },
  (o, s) => {
    for (const value of optionValues(o, ...CURL_DATA)) {
      const file = /^(?:[^=@<]*=)?[@<]([^;]+)/.exec(value)?.[1] ?? /^[^=@]*@(.+)$/.exec(value)?.[1];
      if (file !== undefined) s.read(file);
    }
    if (hasOption(o, "-O", "--remote-name", "--remote-name-all")) s.write(".");
    genericPaths(o.operands, s);
  },
);
