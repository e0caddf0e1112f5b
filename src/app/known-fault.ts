// Faults of the machine rather than of rein (a locked or read-only database, a full disk, a port in
// use, an output that cannot be written), told in one line with what to do, never as a stack trace.
import { accessSync, constants, statfsSync } from "node:fs";
import { dirname } from "node:path";

/** A failure whose message is already the one line to show (exit 1). */
export class KnownFault extends Error {}

/** Writing to stdout or stderr failed with `code` (ENOSPC for /dev/full, EIO, ...). */
export class OutputError extends Error {
  constructor(
    readonly stream: "stdout" | "stderr",
    readonly code: string,
  ) {
    super(`cannot write to ${stream} (${code})`);
  }
}

export type FaultPaths = { db: string; dataDir: string; configDir: string };

/** The one line for a known fault, or undefined for anything else (a bug: shown with its stack). */
export function knownFault(error: unknown, paths: FaultPaths): string | undefined {
  if (error instanceof KnownFault) return error.message;
  if (error instanceof OutputError) return outputFault(error);
  const { code = "", message = "", path, syscall } = error as { code?: string; message?: string; path?: string; syscall?: string };
  if (typeof code !== "string") return undefined;
  if (SQLITE_FAULT.test(code)) return databaseFault(code, message, paths.db);
  if (code === "EADDRINUSE") return `the address is already in use (${message}): stop what listens there, or choose another port with --port N`;
  // A file where a folder of the path should be: mkdir says EEXIST for the last part, ENOTDIR for one above it.
  if (FILE_CODES.has(code) || (code === "EEXIST" && syscall === "mkdir")) return fileFault(code, path, syscall, paths);
  return undefined;
}

/** SQLite result codes that come from the machine (a constraint or a misuse is a bug of rein's). */
const SQLITE_FAULT = /^SQLITE_(BUSY|LOCKED|READONLY|IOERR|FULL|CANTOPEN|CORRUPT|NOTADB|PERM)/;
const SQLITE_PHRASE = /unable to open database file|disk I\/O error|attempt to write a readonly database|database or disk is full|database is locked/;
const FILE_CODES = new Set(["EROFS", "EACCES", "EPERM", "ENOSPC", "EDQUOT", "EIO", "ENOTDIR"]);

const CAUSES: Record<string, string> = {
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "the operation is not permitted",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EIO: "an I/O error (a failing or disconnected disk?)",
  ENOTDIR: "a part of the path is a file, not a folder",
  EEXIST: "a file is where the folder should be",
};

function outputFault(error: OutputError): string {
  const why = CAUSES[error.code] ?? error.code;
  return `cannot write to ${error.stream}: ${why} (${error.code}); send it somewhere that can take it (a file on a disk with space, a pipe)`;
}

function fileFault(code: string, path: string | undefined, syscall: string | undefined, paths: FaultPaths): string {
  const what = path ? `${syscall === "open" || syscall === "mkdir" ? "create or open" : "write"} ${path}` : "write a file";
  return `cannot ${what}: ${CAUSES[code]} (${code}); ${remedy(code, path, paths)}`;
}

function databaseFault(code: string, message: string, db: string): string {
  if (/BUSY|LOCKED/.test(code)) {
    return `the session database ${db} is locked by another process (${message}); wait for it (another rein, or a tool holding it: fuser ${db}) and try again`;
  }
  const corrupt = /CORRUPT|NOTADB/.test(code) ? "; the file is damaged: rein doctor says what to do" : "; run rein doctor";
  return storeFolderFault(db, message, /FULL/.test(code)) ?? `cannot use the session database ${db}: ${message}${corrupt}`;
}

/**
 * When the database's folder is the trouble (read-only, not ours, a full disk), the line that says
 * so: SQLite's own words ("unable to open database file", "disk I/O error") name no cause.
 */
export function storeFolderFault(db: string, sqlite: string, full = false): string | undefined {
  const cause = folderProblem(dirname(db)) ?? (full ? "ENOSPC" : undefined);
  if (!cause) return undefined;
  const said = SQLITE_PHRASE.exec(sqlite)?.[0] ?? sqlite;
  return `cannot use the session database ${db}: ${CAUSES[cause]} (${cause}; SQLite says "${said}"); ${remedy(cause, db, { db, dataDir: dirname(db), configDir: "" })}`;
}

/** Why a folder cannot take writes, as an errno code: read-only, no permission, or a full disk. */
function folderProblem(dir: string): string | undefined {
  try {
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === "EROFS" || code === "EACCES" || code === "EPERM" ? code : undefined;
  }
  try {
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize < 64 * 1024 ? "ENOSPC" : undefined;
  } catch {
    return undefined;
  }
}

function remedy(code: string, path: string | undefined, paths: FaultPaths): string {
  if (code === "ENOSPC" || code === "EDQUOT") return `free some space${path ? ` (df ${dirname(path)})` : ""} and try again`;
  if (code === "EIO") return "check the disk (dmesg), then try again";
  // A folder rein makes its own inside (~/.local when ~/.local/share/rein is made) counts as its own.
  const under = (dir: string) => dir !== "" && path !== undefined && (path === dir || path.startsWith(`${dir}/`) || dir.startsWith(`${path}/`));
  const move = under(paths.dataDir)
    ? "or set REIN_DATA_DIR to a writable folder"
    : under(paths.configDir)
      ? "or set REIN_CONFIG_DIR to a writable folder"
      : "or work somewhere writable";
  if (code === "ENOTDIR" || code === "EEXIST") return `move that file out of the way, ${move}`;
  return code === "EROFS" ? `remount it read-write, ${move}` : `fix its owner or mode, ${move}`;
}
