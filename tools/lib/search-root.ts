// Where a search tool looks: the model's path resolved against the working directory and checked
// to exist, and the result every search tool gives when it is interrupted.
import { stat } from "node:fs/promises";
import { resolvePath } from "./path-requests.ts";

export type SearchRoot = { root: string; isFile: boolean } | { error: string };

export async function searchRoot(path: string | undefined, cwd: string): Promise<SearchRoot> {
  const root = resolvePath(path ?? ".", cwd);
  const info = await stat(root).catch(() => undefined);
  if (!info) return { error: `The path "${path}" does not exist. Check it, or call list on its parent folder to see what is there.` };
  return { root, isFile: !info.isDirectory() };
}

export function notAFolder(path: string | undefined): { output: string; isError: true } {
  return { output: `The path "${path}" is a file, not a folder. Pass the folder that holds it as path.`, isError: true };
}

export const INTERRUPTED = { output: "Interrupted by the user; the search stopped.", isError: true } as const;
