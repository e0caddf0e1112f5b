import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A real directory under the system temp folder, removed by `remove()`. */
export type TempDir = { path: string; remove(): void };

export function tempDir(prefix = "rein-test-"): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
