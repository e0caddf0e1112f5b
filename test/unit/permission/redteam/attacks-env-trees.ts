// A recursive read that reads file contents, hidden ones included, sweeps up the .env files below
// the folder it is given: it asks, as reading the file by name does. Listing names does not.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RedTeamDirs } from "./fixture.ts";

export function setup(dirs: RedTeamDirs): void {
  const app = join(dirs.workspace, "svc");
  mkdirSync(join(app, "src", "config"), { recursive: true });
  writeFileSync(join(app, "src", "config", ".env.production"), "DATABASE_URL=postgres://u:p@db/x\n");
  writeFileSync(join(app, "src", "index.ts"), "export {};\n");
  mkdirSync(join(dirs.workspace, "web", "src"), { recursive: true });
  writeFileSync(join(dirs.workspace, "web", ".env.example"), "DATABASE_URL=\n");
  writeFileSync(join(dirs.workspace, "web", "src", "main.ts"), "export {};\n");
}

export const attacks = [
  "grep -r DATABASE_URL svc",
  "grep -rn postgres svc/",
  "grep -R --include='*' URL svc",
  "grep -ri url svc/src",
  "egrep -r 'postgres://' svc",
  "fgrep -r DATABASE svc",
  "grep --recursive DATABASE svc",
  "grep --recur DATABASE svc",
  "grep -d recurse DATABASE svc",
  "rg --hidden DATABASE svc",
  "rg -uu DATABASE svc",
  "rg -. DATABASE svc",
  "rg --hid DATABASE svc",
  "cd svc && grep -r DATABASE .",
  "cd svc/src && grep -rl postgres .",
  "diff -r svc web",
  "grep -r . svc | head",
];

export const benign = [
  "grep -rn TODO web",
  "grep -r export web/src",
  "rg DATABASE svc",
  "rg -n export svc/src",
  "find svc -name '*.ts'",
  "ls -R svc",
  "tree -a svc",
  "du -a svc",
  "grep -rn export svc/src/index.ts",
];
