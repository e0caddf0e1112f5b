// Turns what a tool call declares into what the rules see: a shell line becomes one `bash` request
// per command it would run (wrappers looked through, `alsoCheck` for deny rules), plus `read` and
// `edit` requests for the files it touches; every path is resolved (symlinks, `..`, `~`), checked
// against the sensitive paths, and gets an `external_directory` request when it is outside the
// workspace.
import { dirname } from "node:path";
import { alwaysPattern, commandPatterns, isDestructive } from "./always.ts";
import { commandPaths, HARMLESS_DEVICES } from "./command-paths.ts";
import type { PermissionRequest } from "./evaluate.ts";
import { isInside, resolveForCheck } from "./paths.ts";
import { sensitivePath, sensitiveWithin } from "./sensitive.ts";
import type { ShellCommand } from "./shell/types.ts";

export type EngineContext = {
  cwd: string;
  /** the workspace root, symlinks resolved */
  workspace: string;
  home: string;
  /** rein's own folders (config, data, the project's .rein): their secrets are never read or written */
  reinDirs: string[];
  /** folders outside the workspace that need no external_directory request (the temp folder) */
  openDirs: string[];
};

export type Expanded = { requests: PermissionRequest[]; commands: ShellCommand[] };


/** Starts loading the shell parser without waiting for it. */
export function warmUpShellAnalysis(): void {
  void import("./shell/analyze.ts").then((m) => m.loadShellParser()).catch(() => {});
}

export async function expandRequests(requests: readonly PermissionRequest[], ctx: EngineContext): Promise<Expanded> {
  const out: PermissionRequest[] = [];
  const commands: ShellCommand[] = [];
  for (const request of requests) {
    if (request.permission === "bash") {
      const expanded = await expandShell(request.pattern, ctx);
      out.push(...expanded.requests);
      commands.push(...expanded.commands);
    } else if (request.permission === "read" || request.permission === "edit") {
      out.push(...pathRequests(request.permission, request.pattern, ctx));
    } else if (request.permission !== "external_directory") {
      out.push(request); // external_directory is recomputed from the resolved paths
    }
  }
  return { requests: dedupe(out), commands };
}

async function expandShell(line: string, ctx: EngineContext): Promise<Expanded> {
  // Loaded on first use: web-tree-sitter and its wasm are not needed by a run that never calls bash.
  const { analyzeShell } = await import("./shell/analyze.ts");
  const analysis = await analyzeShell(line, ctx.cwd, ctx.home);
  if (analysis.error) {
    return {
      requests: [{ permission: "bash", pattern: line, always: [], opaque: true, fixed: { action: "ask", reason: `the line cannot be analysed (${analysis.error})` } }],
      commands: [],
    };
  }
  const requests: PermissionRequest[] = [];
  for (const command of analysis.commands) {
    const { pattern, alsoCheck } = commandPatterns(command);
    // The analysis finds what a command runs; its option table, what its options and words do.
    const paths = commandPaths(command, ctx.home);
    const reason = command.opaque ?? paths.opaque;
    const opaque = reason !== undefined;
    requests.push({
      permission: "bash",
      pattern,
      always: opaque ? [] : [alwaysPattern(command)],
      ...(opaque ? { opaque: true, reason } : {}),
      ...(alsoCheck.length ? { alsoCheck } : {}),
      ...(isDestructive(command.argv) ? { destructive: true } : {}),
    });
    for (const path of paths.reads) requests.push(...pathRequests("read", path, { ...ctx, cwd: command.cwd }));
    for (const path of paths.writes) requests.push(...pathRequests("edit", path, { ...ctx, cwd: command.cwd }));
  }
  for (const redirect of analysis.redirects) {
    const permission = redirect.kind === "write" ? "edit" : "read";
    if (redirect.dynamic) {
      requests.push({ permission, pattern: redirect.target, always: [], opaque: true, reason: "the redirect target is only known when the command runs" });
    } else if (!HARMLESS_DEVICES.has(redirect.path)) {
      requests.push(...pathRequests(permission, redirect.path, ctx));
    }
  }
  return { requests, commands: analysis.commands };
}

function pathRequests(permission: "read" | "edit", path: string, ctx: EngineContext): PermissionRequest[] {
  const resolved = resolveForCheck(path, ctx.cwd, ctx.home);
  const inside = permission === "read" ? sensitiveWithin(resolved, ctx.home) : [];
  const sensitive =
    sensitivePath(resolved, ctx.home, ctx.reinDirs) ??
    (inside.length ? { action: "ask" as const, reason: `the folder holds credentials (${inside.slice(0, 3).join(", ")}${inside.length > 3 ? ", ..." : ""})` } : undefined);
  const request: PermissionRequest = { permission, pattern: resolved, always: [resolved], ...(sensitive ? { fixed: sensitive } : {}) };
  if (isInside(resolved, ctx.workspace) || ctx.openDirs.some((dir) => isInside(resolved, dir))) return [request];
  return [request, { permission: "external_directory", pattern: resolved, always: [`${dirname(resolved)}/*`] }];
}

function dedupe(requests: PermissionRequest[]): PermissionRequest[] {
  const seen = new Set<string>();
  return requests.filter((r) => {
    const key = `${r.permission}\u0000${r.pattern}\u0000${r.opaque ? 1 : 0}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The context for a session working in `cwd`: the workspace and the temp folder with their symlinks resolved. */
export function engineContext(opts: { cwd: string; projectRoot: string; home: string; reinDirs: string[]; tmp: string }): EngineContext {
  const real = (path: string) => resolveForCheck(path, "/", opts.home);
  return {
    cwd: opts.cwd,
    workspace: real(opts.projectRoot),
    home: real(opts.home),
    reinDirs: opts.reinDirs.map(real),
    openDirs: [real(opts.tmp)],
  };
}
