// The real folders the red-team corpora run in: a workspace (a git repository) and a home, in a
// temp folder that is not treated as the open temp folder, so "outside the workspace" means it.
// Corpus files may add what their lines need through `setup`.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type RedTeamDirs = { root: string; workspace: string; home: string; tmp: string };

export function redTeamDirs(): RedTeamDirs & { remove(): void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-redteam-")));
  const dirs = { root, workspace: join(root, "ws"), home: join(root, "home"), tmp: join(root, "tmp") };
  for (const dir of [dirs.workspace, dirs.home, dirs.tmp, join(dirs.workspace, ".git"), join(dirs.home, ".ssh")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(dirs.workspace, ".git", "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dirs.workspace, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n");
  writeFileSync(join(dirs.home, ".ssh", "id_rsa"), "not a key\n");
  return { ...dirs, remove: () => rmSync(root, { recursive: true, force: true }) };
}
