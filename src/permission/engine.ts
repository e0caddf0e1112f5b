// Turns what a tool call declares into what the rules see: a shell line becomes one `bash` request
// per command it would run (wrappers looked through, `alsoCheck` for deny rules), plus `read` and
// `edit` requests for the files it touches; every path is resolved (symlinks, `..`, `~`), checked
// against the sensitive paths, and gets an `external_directory` request when it is outside the
// workspace.
import { dirname } from "node:path";
import { alwaysPattern, commandPatterns, isDestructive } from "./always.ts";
import { commandPaths, HARMLESS_DEVICES } from "./command-paths.ts";
import { credentialCommand } from "./credential-commands.ts";
import { credentialMention, envMention } from "./credential-text.ts";
import { envFilter } from "./env-filters.ts";
import type { PermissionRequest } from "./evaluate.ts";
import { analyzeGit } from "./git/analyze.ts";
import { programInWorkspace } from "./path-lookup.ts";
import { isInside, resolveForCheck } from "./paths.ts";
import { followsLinks, readsContents, readsHiddenContents, readsTrees } from "./recursive-reads.ts";
import { sensitivePath, sensitiveWithin } from "./sensitive.ts";
import { linkLeaving, type LinkScan } from "./symlinks-out.ts";
import { webRequest } from "./web-requests.ts";
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
  /** the PATH commands are looked up through */
  searchPath: string;
  /** commands a rule or mode allowed run in the kernel sandbox, which hides the credential set; without it a line whose reads cannot be resolved asks */
  sandboxed?: boolean;
};

// Commands that only print their words.
const PRINTERS = new Set(["echo", "printf"]);

export type Expanded = { requests: PermissionRequest[]; commands: ShellCommand[] };


/** Starts loading the shell parser without waiting for it (unless the first line turns out not to need it: shell/analyze.ts). */
export function warmUpShellAnalysis(): void {
  void import("./shell/analyze.ts").then((m) => m.warmUpParser()).catch(() => {});
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
      // A tool given a folder (grep, glob, list) reads it as a tree.
      out.push(...pathRequests(request.permission, request.pattern, ctx, { tree: true, follows: false, contents: false }));
    } else if (request.permission === "webfetch") {
      out.push(await webRequest(request)); // judged by the addresses its host resolves to
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
  let unseen = analysis.redirects.some((r) => r.dynamic);
  let unresolved = analysis.unresolved;
  const scans = new Map<string, LinkScan>(); // a folder several commands of the line read as a tree is walked once
  for (const command of analysis.commands) {
    const git = command.argv[0] === "git" ? analyzeGit(command, ctx) : undefined;
    // git is checked in the form its harmless global options do not change (`git --no-pager log` as `git log`).
    const checked = git ? { ...command, argv: git.argv } : command;
    const { pattern, alsoCheck } = commandPatterns(checked);
    const written = checked !== command ? commandPatterns(command).pattern : pattern;
    if (written !== pattern) alsoCheck.push(written);
    // The analysis finds what a command runs; its option table, what its options and words do.
    // The state builtins name variables, never files (their redirects are checked below).
    const paths = git
      ? { reads: git.reads, writes: git.writes, opaque: git.opaque }
      : STATE_BUILTINS.has(command.argv[0] ?? "") && command.wrappers.length === 0
        ? { reads: [], writes: [] }
        : commandPaths(command, ctx.home);
    const shipped = programInWorkspace(command.argv[0] ?? "", command.cwd, ctx.searchPath, ctx.workspace, ctx.home);
    if ("unresolved" in paths) unresolved ??= paths.unresolved;
    const reason = command.opaque ?? paths.opaque ?? (shipped ? `${command.argv[0]} runs ${shipped}, a program inside the workspace` : undefined);
    const opaque = reason !== undefined;
    unseen ||= opaque || command.dynamic === true;
    requests.push({
      permission: "bash",
      pattern,
      always: opaque ? [] : [alwaysPattern(checked)],
      ...(opaque ? { opaque: true, reason } : {}),
      ...(alsoCheck.length ? { alsoCheck } : {}),
      ...(isDestructive(command.argv) ? { destructive: true } : {}),
      ...(git?.readOnly || stateOnly(command, opaque) ? { readOnly: true } : {}),
      ...(git?.secret ? { fixed: { action: "ask" as const, reason: git.secret } } : {}),
    });
    const filter = git ? undefined : envFilter(command.argv);
    if (filter) requests.push({ permission: "read", pattern: filter, always: [], fixed: { action: "ask", reason: "it selects environment files, which often hold secrets" } });
    const printed = credentialCommand(command.argv);
    if (printed) requests.push(denied(command.argv.join(" "), `it prints ${printed}, protected in every permission mode`));
    const at = { ...ctx, cwd: git?.dir ?? command.cwd };
    // A file:// URL is a local file read (`curl file:///etc/shadow`).
    for (const word of command.argv.slice(1)) {
      const local = /^file:\/\/(?:localhost)?(\/[^?#]*)/i.exec(word)?.[1];
      if (local) requests.push(...pathRequests("read", decodeURIComponent(local), at));
    }
    const tree = !git && readsTrees(command) ? { tree: true, follows: followsLinks(command), contents: readsHiddenContents(command), visible: readsContents(command), scans } : undefined;
    for (const path of paths.reads) requests.push(...pathRequests("read", path, at, tree));
    for (const path of paths.writes) requests.push(...pathRequests("edit", path, at));
  }
  // What the analysis cannot read statically may still name a credential in its text.
  // Here-documents and here-strings are data a command may take as names (`sort --files0-from=-`).
  // A word holding blanks is text a command may run as code (`script -c '...'`, `tmux new 'cat ...'`).
  const cwds = [...new Set([ctx.cwd, ...analysis.commands.map((c) => c.cwd)])];
  const codeLike = analysis.commands.filter((c) => !PRINTERS.has(c.argv[0] ?? "")).flatMap((c) => c.argv.slice(1).filter((w) => /\s/.test(w)));
  const spoken = unseen || line.includes("<<") ? undefined : codeLike.map((w) => credentialMention(w, ctx.home, cwds)).find(Boolean);
  if (spoken) requests.push(denied(spoken.path, `a word of the line names ${spoken.what}, protected in every permission mode`));
  if (unseen || line.includes("<<")) {
    const mention = credentialMention(line, ctx.home, cwds);
    if (mention) requests.push(denied(mention.path, `the line names ${mention.what} in text the analysis cannot follow, protected in every permission mode`));
    const env = envMention(line);
    if (env) requests.push({ permission: "read", pattern: env, always: [], fixed: { action: "ask", reason: "the line names an environment file in text the analysis cannot follow" } });
  }
  // Where no sandbox hides the credentials, what the analysis cannot resolve is not left to a rule
  // (auto mode's `*`) to allow.
  if (unresolved && !ctx.sandboxed) {
    const reason = `${unresolved}, so what it reads cannot be checked, and no sandbox hides the credentials here`;
    requests.push({ permission: "bash", pattern: line, always: [], opaque: true, reason, fixed: { action: "ask", reason } });
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

/** How a folder among a command's reads is read: as a whole tree, following the symlinks in it or not. */
type TreeRead = { tree: boolean; follows: boolean; contents: boolean; visible?: boolean; scans?: Map<string, LinkScan> };

// Builtins that only change this shell's own state, which the analysis follows (an assignment that
// changes how later commands run makes them opaque; see shell/state.ts).
const STATE_BUILTINS = new Set(["read", "export", "declare", "typeset", "local", "readonly", "set", "unset", "shift", "getopts", "mapfile", "readarray", "let", ":", "compgen", "trap"]);

function stateOnly(command: ShellCommand, opaque: boolean): boolean {
  if (opaque || command.wrappers.length > 0 || command.dynamicContext || !STATE_BUILTINS.has(command.argv[0] ?? "")) return false;
  // Only an assigned value may be unknown (`export X=$(...)`), never a name or an option.
  return (command.unknown ?? []).every(({ index }) => /^[A-Za-z_]\w*\+?=/.test(command.argv[index] ?? ""));
}

function denied(pattern: string, reason: string): PermissionRequest {
  return { permission: "read", pattern, always: [], fixed: { action: "deny", reason } };
}

function pathRequests(permission: "read" | "edit", path: string, ctx: EngineContext, read?: TreeRead): PermissionRequest[] {
  const resolved = resolveForCheck(path, ctx.cwd, ctx.home);
  const sensitive = sensitivePath(resolved, ctx.home, ctx.reinDirs, permission) ?? (read ? treeRisk(resolved, ctx, read) : undefined);
  const request: PermissionRequest = { permission, pattern: resolved, always: [resolved], ...(sensitive ? { fixed: sensitive } : {}) };
  if (isInside(resolved, ctx.workspace) || ctx.openDirs.some((dir) => isInside(resolved, dir))) return [request];
  return [request, { permission: "external_directory", pattern: resolved, always: [`${dirname(resolved)}/*`] }];
}

// A tree read of a folder holding credentials sweeps them up; one holding a symlink out of the
// workspace (or to a credential) may follow it there.
function treeRisk(dir: string, ctx: EngineContext, read: TreeRead): { action: "deny" | "ask"; reason: string } | undefined {
  const inside = sensitiveWithin(dir, ctx.home);
  if (inside.length > 0) {
    const listed = `${inside.slice(0, 3).join(", ")}${inside.length > 3 ? ", ..." : ""}`;
    return { action: "deny", reason: `it reads a folder holding credentials (${listed}) as a whole, protected in every permission mode` };
  }
  // A search of contents needs the environment files however deep they lie; a listing only the links.
  const reads = read.contents || read.visible === true;
  const cached = read.scans?.get(dir);
  const scan = cached && (cached.envComplete || !reads) ? cached : linkLeaving(dir, ctx.workspace, ctx.home, ctx.reinDirs, reads);
  read.scans?.set(dir, scan);
  // A reader that does not follow the links it meets (`grep -r`, `find` without -L, `rg` without -L) reads only the tree itself.
  if (scan.link && read.follows) return { action: "ask", reason: `the folder holds a symlink (${scan.link.path}) to ${scan.link.target}, which a recursive read can follow` };
  const env = read.contents ? scan.env : read.visible ? scan.visibleEnv : undefined;
  if (env) return { action: "ask", reason: `the folder holds an environment file (${env}), which often holds secrets and a recursive read reads` };
  if (!scan.complete && read.follows) return { action: "ask", reason: "the folder is too large to check for symlinks leading out, and the command follows them" };
  if (!scan.envComplete && reads) return { action: "ask", reason: "the folder is too large to check for environment files, and a recursive read reads them" };
  return undefined;
}

function dedupe(requests: PermissionRequest[]): PermissionRequest[] {
  const seen = new Set<string>();
  return requests.filter((r) => {
    const key = `${r.permission}\u0000${r.pattern}\u0000${r.opaque ? 1 : 0}\u0000${r.fixed?.action ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The context for a session working in `cwd`: the workspace and the temp folder with their symlinks resolved. */
export function engineContext(opts: { cwd: string; projectRoot: string; home: string; reinDirs: string[]; tmp: string; searchPath?: string; sandboxed?: boolean }): EngineContext {
  const real = (path: string) => resolveForCheck(path, "/", opts.home);
  return {
    cwd: opts.cwd,
    workspace: real(opts.projectRoot),
    home: real(opts.home),
    reinDirs: opts.reinDirs.map(real),
    openDirs: [real(opts.tmp)],
    searchPath: opts.searchPath ?? process.env.PATH ?? "",
    ...(opts.sandboxed ? { sandboxed: true } : {}),
  };
}
