// The folders agent files are read from (sources.ts reads them): apart, so a run can see that none
// is there without loading the parser (app/load-agents.ts).
import { join } from "node:path";
import { foldersUpTo } from "../config/find-project-root.ts";
import type { AgentFormat } from "./parse.ts";
import type { AgentFolderRead, AgentSourceContext } from "./sources.ts";

export type Folder = { dir: string; format: AgentFormat; project: boolean; recursive: boolean; prefix?: string; read?: AgentFolderRead };

const PROJECT_FOLDERS: { path: string[]; format: AgentFormat; recursive: boolean }[] = [
  { path: [".rein", "agents"], format: "rein", recursive: true },
  { path: [".claude", "agents"], format: "claude", recursive: true },
  { path: [".opencode", "agents"], format: "opencode", recursive: true },
  { path: [".opencode", "agent"], format: "opencode", recursive: false },
];

/** Where agent files are read from, nearest first: the project's folders up to its root, the user's, then plugins'. */
export function agentFolders(ctx: AgentSourceContext): Folder[] {
  const project = foldersUpTo(ctx.cwd, ctx.projectRoot).flatMap((dir) =>
    PROJECT_FOLDERS.map((f) => ({ dir: join(dir, ...f.path), format: f.format, project: true, recursive: f.recursive })),
  );
  const config = ctx.xdgConfig ?? join(ctx.home, ".config");
  const user: Folder[] = [
    { dir: join(ctx.configDir, "agents"), format: "rein", project: false, recursive: true },
    { dir: join(ctx.home, ".claude", "agents"), format: "claude", project: false, recursive: true },
    { dir: join(config, "opencode", "agents"), format: "opencode", project: false, recursive: true },
    { dir: join(config, "opencode", "agent"), format: "opencode", project: false, recursive: false },
  ];
  // Started in the home folder, ~/.claude/agents is the user's folder, not a project's copy of it.
  const own = new Set(user.map((f) => f.dir));
  const folders: Folder[] = [...project.filter((f) => !own.has(f.dir)), ...user];
  // a loop, not map: map's calls and elements over a start's plugins add up past JavaScriptCore's optimizing threshold
  for (const p of ctx.plugins ?? []) folders.push({ dir: p.dir, format: "claude" as const, project: false, recursive: true, prefix: p.prefix, ...(p.read ? { read: p.read } : {}) });
  return folders;
}
