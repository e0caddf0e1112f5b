import { statSync } from "node:fs";

/** What a folder entry is, following symlinks; a broken link, a loop or a failed stat carries its error code. */
export function pathKind(path: string): "file" | "dir" | "other" | { error: string } {
  try {
    const info = statSync(path);
    return info.isDirectory() ? "dir" : info.isFile() ? "file" : "other";
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}
