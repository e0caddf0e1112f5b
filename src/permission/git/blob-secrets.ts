// git subcommands that print what the repository holds (blob contents, patches, matches) reach a
// committed `.env` whatever names it: a revision (`git grep KEY HEAD`), a pattern over the tracked
// files, an object id, names on stdin (`echo HEAD:.env | git cat-file --batch`). When the index
// tracks an environment file (or another sensitive one), such a command asks, as reading the file
// would. The index is read as bytes (no git process runs): its version 2 and 3 entries hold each
// path in full, NUL-terminated; version 4 compresses them, so there any `.env` in the bytes counts.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sensitivePath } from "../sensitive.ts";

// Every subcommand that prints file contents from the repository; log-like ones only with a patch.
const CONTENTS = new Set([
  "grep", "show", "diff", "diff-tree", "diff-index", "diff-files", "range-diff", "cat-file", "blame", "annotate", "archive",
  "fast-export", "unpack-file", "format-patch", "notes",
]);
const PATCHES = new Set(["log", "whatchanged", "rev-list", "reflog", "stash"]);
const PATCH_OPTION = /^(?:-p|-u|--patch(?:-with-\w+)?|--cc|-c|-m|--word-diff(?:=.*)?|--color-words(?:=.*)?|-W|--function-context|-L.*|--remerge-diff|--dd|-U\d*|--unified(?:=.*)?|-[a-zA-Z]*p[a-zA-Z]*)$/;
// cat-file forms that print no contents: a type, a size, whether it exists, or the batch checks.
const NO_CONTENTS = /^(?:-t|-s|-e|--batch-check(?:=.*)?|--batch-all-objects)$/;

const cache = new Map<string, { key: string; found: string | undefined; names: string[] | undefined }>();

/** Why `git <sub> <args>` may print a sensitive file the repository tracks, or undefined. */
export function printsTrackedSecret(sub: string, args: readonly string[], workspace: string, home: string): string | undefined {
  if (!CONTENTS.has(sub) && !(PATCHES.has(sub) && args.some((a) => PATCH_OPTION.test(a)))) return undefined;
  if (sub === "stash" && args[0] !== "show") return undefined;
  if (sub === "cat-file" && args.some((a) => NO_CONTENTS.test(a)) && !args.some((a) => /^--batch(?:-command)?(?:=.*)?$/.test(a))) return undefined;
  const found = trackedSecret(workspace, home);
  return found === undefined ? undefined : `the repository tracks ${found}, and git ${sub} can print what it holds`;
}

/** The first tracked path (in the workspace's index) that is sensitive, read once per change of the index. */
export function trackedSecret(workspace: string, home: string): string | undefined {
  return readIndex(workspace, home)?.found;
}

/** The paths the workspace's index tracks (relative to its top), or undefined when it cannot be read. */
export function trackedNames(workspace: string, home: string): readonly string[] | undefined {
  return readIndex(workspace, home)?.names;
}

function readIndex(workspace: string, home: string): { found: string | undefined; names: string[] | undefined } | undefined {
  const index = join(workspace, ".git", "index");
  let key: string;
  try {
    const stat = statSync(index);
    if (!stat.isFile()) return undefined;
    key = `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return undefined;
  }
  const hit = cache.get(index);
  if (hit?.key === key) return hit;
  const read = scanIndex(index, workspace, home);
  if (cache.size > 64) cache.clear();
  cache.set(index, { key, ...read });
  return read;
}

function scanIndex(index: string, workspace: string, home: string): { found: string | undefined; names: string[] | undefined } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(index);
  } catch {
    return { found: undefined, names: undefined };
  }
  const names = indexNames(bytes);
  if (names === undefined) return { found: /\.env|env\0/.test(bytes.toString("latin1")) ? "an environment file (its name is compressed in the index)" : undefined, names };
  return { found: firstSensitive(names, workspace, home), names };
}

function firstSensitive(names: readonly string[], workspace: string, home: string): string | undefined {
  for (const path of names) {
    // Below the workspace only environment files and core dumps are sensitive, unless it is the home (a dotfiles repository).
    if (workspace !== home && !/env|core\./i.test(path)) continue;
    const sensitive = sensitivePath(join(workspace, path), home);
    if (sensitive && !/git (?:config|hook)/.test(sensitive.reason)) return `${path} (${sensitive.reason.replace(/, protected in every permission mode$/, "")})`;
  }
  return undefined;
}

// Index versions 2 and 3: "DIRC", version, count, then per entry 40 bytes of stat data, the object
// id (20 bytes; 32 in a SHA-256 repository), 2 bytes of flags (whose low 12 bits are the name's
// length), 2 more in version 3 when the extended bit is set, the name, and NULs to a multiple of 8.
function indexNames(bytes: Buffer): string[] | undefined {
  if (bytes.length < 12 || bytes.toString("latin1", 0, 4) !== "DIRC") return undefined;
  const version = bytes.readUInt32BE(4);
  if (version !== 2 && version !== 3) return undefined;
  const count = bytes.readUInt32BE(8);
  for (const idLength of [20, 32]) {
    const names: string[] = [];
    let at = 12;
    for (let i = 0; i < count && at + 40 + idLength + 2 <= bytes.length; i++) {
      const start = at;
      const flags = bytes.readUInt16BE(at + 40 + idLength);
      at += 40 + idLength + 2 + (version === 3 && flags & 0x4000 ? 2 : 0);
      const end = bytes.indexOf(0, at);
      if (end < 0 || ((flags & 0xfff) !== 0xfff && end - at !== (flags & 0xfff))) break;
      names.push(bytes.toString("utf8", at, end));
      at = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    if (names.length === count) return names;
  }
  return undefined;
}
