// Writes files back into the workspace from the shadow store's blobs: one `git cat-file --batch` for
// all of them, the files written here (regular files with their executable bit, symbolic links), so
// no index is read or written.
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gitBytes, type GitPlace } from "./git.ts";
import { lstatOrUndefined } from "./scan.ts";

export type Entry = { path: string; mode: string; sha: string };

/** Puts each entry's blob at its path (a gitlink, a nested repository, is left alone). */
export async function putBack(place: GitPlace, entries: readonly Entry[]): Promise<void> {
  const blobs = entries.filter((e) => e.mode !== "160000");
  if (!blobs.length) return;
  const out = await gitBytes(place, ["cat-file", "--batch"], blobs.map((e) => `${e.sha}\n`).join(""));
  const umask = process.umask();
  let at = 0;
  for (const entry of blobs) {
    const eol = out.indexOf(10, at);
    const header = new TextDecoder().decode(out.subarray(at, eol)).split(" ");
    if (header[1] !== "blob") throw new Error(`the checkpoint lacks ${entry.path} (${header.join(" ")})`);
    const size = Number(header[2]);
    const content = out.subarray(eol + 1, eol + 1 + size);
    at = eol + 1 + size + 1;
    write(join(place.workTree, entry.path), entry.mode, content, umask);
  }
}

function write(full: string, mode: string, content: Uint8Array, umask: number): void {
  const existing = lstatOrUndefined(full);
  // A folder or a link where the file goes back is replaced, never written through.
  if (existing && (existing.isDirectory() || existing.isSymbolicLink() || mode === "120000")) rmSync(full, { recursive: true, force: true });
  mkdirSync(dirname(full), { recursive: true });
  if (mode === "120000") return symlinkSync(new TextDecoder().decode(content), full);
  writeFileSync(full, content);
  chmodSync(full, (mode === "100755" ? 0o777 : 0o666) & ~umask);
}
