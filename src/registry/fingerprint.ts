// What a tool folder holds, cheaply enough to ask before every model turn: the names, sizes and
// modification times of its files. A folder is listed again only when its own modification time
// moved (an entry was added, removed or renamed); its files are stat'ed every time, as an edit in
// place changes only the file.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

type Listing = { mtimeMs: number; files: string[]; dirs: string[] };

/** Folders deeper than this below a tool folder are not looked at. */
const MAX_DEPTH = 4;
/** A listing this recent may have missed an entry made in the same clock tick: it is not trusted yet. */
const RACY_MS = 2_000;

export class FolderFingerprints {
  private readonly listings = new Map<string, Listing>();

  constructor(private readonly now: () => number = Date.now) {}

  /** One line per file under `dir` (path, size, mtime), sorted; "" for a missing folder. */
  of(dir: string): string[] {
    const parts: string[] = [];
    this.walk(dir, 0, parts);
    return parts.sort();
  }

  private walk(dir: string, depth: number, parts: string[]): void {
    const listing = this.listing(dir);
    if (!listing) return;
    for (const file of listing.files) {
      try {
        const s = statSync(file);
        if (s.isFile()) parts.push(`${file}:${s.size}:${s.mtimeMs}`);
      } catch {
        // removed while we looked
      }
    }
    if (depth < MAX_DEPTH) for (const sub of listing.dirs) this.walk(sub, depth + 1, parts);
  }

  private listing(dir: string): Listing | undefined {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(dir).mtimeMs;
    } catch {
      this.listings.delete(dir);
      return undefined;
    }
    const known = this.listings.get(dir);
    if (known && known.mtimeMs === mtimeMs && this.now() - mtimeMs > RACY_MS) return known;
    const listing: Listing = { mtimeMs, files: [], dirs: [] };
    try {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) listing.dirs.push(path);
        else if (entry.isFile()) listing.files.push(path);
      }
    } catch {
      return undefined;
    }
    this.listings.set(dir, listing);
    return listing;
  }
}
