// Paths as the shell would see them: `~` expanded with the home given, `..` resolved against the cwd.
import { resolve } from "node:path";
import type { Place } from "./scope.ts";

export function resolvePath(place: Place, path: string): string {
  return resolve(place.cwd, path);
}

/** An absolute path stays right when the directory is unknown; a relative one does not. */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

// `/usr/bin/rm` runs what `rm` runs; a path elsewhere (`./rm`) is its own program.
const SYSTEM_BIN = /^\/(?:usr\/(?:local\/)?)?s?bin\/([^/]+)$/;

/** The name a command is known by: the word itself, or the program name of a system-bin path. */
export function commandName(word: string): string {
  return SYSTEM_BIN.exec(word)?.[1] ?? word;
}
