// The instruction files users keep: AGENTS.md, CLAUDE.md and CLAUDE.local.md from the user's config
// folder (and Claude Code's ~/.claude/CLAUDE.md, OpenCode's ~/.config/opencode/AGENTS.md), then
// from each folder from the project root down to the working directory (`.claude/CLAUDE.md` too). Where both
// names are in one folder both are read, AGENTS.md first; a file that is another one (a symlink)
// or has the same text is read once. Each file is capped (32 KiB by default, as Codex does): a
// huge one would make every request too long.
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { foldersUpTo } from "../config/find-project-root.ts";
import { sensitivePath } from "../permission/sensitive.ts";
import { cutWarning, expandImports, type ImportContext, type ImportedFile } from "./imports.ts";
import { readCapped } from "./read-capped.ts";

export const INSTRUCTION_CAP_BYTES = 32 * 1024;
export const INSTRUCTION_NAMES = ["AGENTS.md", "CLAUDE.md", "CLAUDE.local.md"] as const;

export type InstructionSources = {
  projectRoot: string;
  /** the user's AGENTS.md; CLAUDE.md and CLAUDE.local.md beside it are read too */
  userInstructions: string;
  cwd: string;
  now?: Date;
  /** bytes kept of each instruction file (REIN_INSTRUCTIONS_MAX_BYTES) */
  maxBytes?: number;
  /** for `~/` in imports and the sensitive paths no import may read */
  home?: string;
  reinDirs?: readonly string[];
  /** the workspace is trusted: a project file's imports may leave the repository (absent: not trusted) */
  trusted?: boolean;
  /** more files to read after the folders' (OpenCode's `instructions`); a project's only inside it unless trusted, never a sensitive path */
  extra?: readonly { path: string; scope: "user" | "project" }[];
};

export type InstructionFile = {
  path: string;
  scope: "user" | "project";
  text: string;
  bytes: number;
  cut: boolean;
  imports: ImportedFile[];
};

/** What was read once already: real paths and texts (a symlink or a copy is read once). */
export type SeenFiles = { real: Set<string>; texts: Set<string> };

/** `seen`: what was read, so the folder instructions met later skip what the prompt carries. */
export type LoadedInstructions = { files: InstructionFile[]; warnings: string[]; seen: SeenFiles };

/** The instruction files that go into the prompt, in order, each read up to the cap, with imports expanded. */
export function loadInstructions(sources: InstructionSources, seen: SeenFiles = { real: new Set(), texts: new Set() }): LoadedInstructions {
  const warnings: string[] = [];
  const files: InstructionFile[] = [];
  const userDir = dirname(sources.userInstructions);
  const home = sources.home ?? homedir();
  // rein's own, then Claude Code's and OpenCode's user files (a file that is one of the others is read once).
  const user = [
    sources.userInstructions,
    ...INSTRUCTION_NAMES.slice(1).map((name) => join(userDir, name)),
    join(home, ".claude", "CLAUDE.md"),
    join(home, ".config", "opencode", "AGENTS.md"),
  ];
  for (const path of user) pushFile(files, warnings, seen, path, "user", sources);
  for (const dir of foldersUpTo(sources.cwd, sources.projectRoot).reverse()) pushFolder(files, warnings, seen, dir, sources);
  for (const extra of sources.extra ?? []) {
    const problem = extraProblem(extra, sources, home);
    if (problem) warnings.push(`${extra.path}: not read: ${problem}`);
    else pushFile(files, warnings, seen, extra.path, extra.scope, sources);
  }
  return { files, warnings, seen };
}

/** Why a listed instruction file is not read: a sensitive path, or a repository's reach outside itself untrusted. */
function extraProblem(extra: { path: string; scope: "user" | "project" }, sources: InstructionSources, home: string): string | undefined {
  let real = extra.path;
  try {
    real = realpathSync(extra.path);
  } catch {
    return undefined; // missing: pushFile says nothing of a file that is not there
  }
  const sensitive = sensitivePath(extra.path, home, sources.reinDirs ?? []) ?? sensitivePath(real, home, sources.reinDirs ?? []);
  if (sensitive) return `it is ${sensitive.reason}, which never goes to the model`;
  if (extra.scope === "project" && !sources.trusted && !within(realOr(sources.projectRoot), real)) return "it is outside the repository, and this workspace is not trusted (run with --trust to read it)";
  return undefined;
}

/** A folder's files: AGENTS.md, CLAUDE.md, Claude Code's .claude/CLAUDE.md, CLAUDE.local.md. */
function pushFolder(files: InstructionFile[], warnings: string[], seen: SeenFiles, dir: string, sources: InstructionSources): void {
  for (const path of [join(dir, "AGENTS.md"), join(dir, "CLAUDE.md"), join(dir, ".claude", "CLAUDE.md"), join(dir, "CLAUDE.local.md")]) {
    pushFile(files, warnings, seen, path, "project", sources);
  }
}

/**
 * The files of every folder between the project root and `file`'s folder not read yet, root first:
 * for a tool that reads or edits `file` (started in `pkg/app`, a read of `lib/util.ts` brings
 * `lib/AGENTS.md`, as OpenCode does). Nothing for a file outside the project.
 */
export function loadFolderInstructions(file: string, sources: InstructionSources, seen: SeenFiles): Omit<LoadedInstructions, "seen"> {
  const warnings: string[] = [];
  const files: InstructionFile[] = [];
  if (!within(sources.projectRoot, dirname(file))) return { files, warnings };
  for (const dir of foldersUpTo(dirname(file), sources.projectRoot).reverse()) pushFolder(files, warnings, seen, dir, sources);
  return { files, warnings };
}

export function instructionFiles(sources: InstructionSources): InstructionFile[] {
  return loadInstructions(sources).files;
}

/** One line per problem (a file cut, an import refused), naming the file: for front ends to show, and rein doctor. */
export function instructionWarnings(sources: InstructionSources): string[] {
  return loadInstructions(sources).warnings;
}

/** How the model reads one file. */
export function instructionBlock(file: InstructionFile, cap: number): string {
  const note = file.cut ? `\n[rein: cut here; the file is ${file.bytes} bytes and only the first ${cap} are sent]` : "";
  return `Instructions from the ${file.scope} (${file.path}):\n${file.text}${note}`;
}

function pushFile(files: InstructionFile[], warnings: string[], seen: SeenFiles, path: string, scope: InstructionFile["scope"], sources: InstructionSources): void {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return;
  }
  if (seen.real.has(real)) return;
  seen.real.add(real);
  const cap = sources.maxBytes ?? INSTRUCTION_CAP_BYTES;
  const read = readCapped(real, cap);
  if ("problem" in read) {
    if (!read.missing) warnings.push(`${path}: skipped: ${read.problem}`);
    return;
  }
  if (!read.text || seen.texts.has(read.text)) return;
  seen.texts.add(read.text);
  if (read.cut) warnings.push(cutWarning(path, read.bytes, cap));
  const confine = sources.trusted ? {} : { confineTo: realOr(sources.projectRoot) };
  const ctx: ImportContext = { home: sources.home ?? homedir(), reinDirs: sources.reinDirs ?? [], cap, warnings, imported: [], sent: seen.real, ...confine };
  const text = expandImports(read.text, real, ctx);
  files.push({ path, scope, text, bytes: read.bytes, cut: read.cut, imports: ctx.imported });
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function within(top: string, path: string): boolean {
  const rel = relative(top, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep));
}

/** The instruction files as the system prompt carries them, one block each. */
export function instructionsPrompt(sources: InstructionSources, loaded: LoadedInstructions = loadInstructions(sources)): string[] {
  const cap = sources.maxBytes ?? INSTRUCTION_CAP_BYTES;
  return loaded.files.map((file) => instructionBlock(file, cap));
}
