// `@path` imports in instruction files: relative to the importing file (`~/` is the home folder),
// at most MAX_IMPORT_DEPTH hops, never inside code spans or fences. A sensitive path (credentials,
// rein's secrets, `.env` files) is never imported, trusted or not; from a workspace that is not
// trusted, a file inside the repository imports only what is inside it too (an untrusted
// AGENTS.md must not carry `@~/.claude/.credentials.json` into the prompt). A cycle, a missing
// file or a refusal leaves the `@path` as written and says why in one warning naming the file and
// the line.
import { realpathSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { sensitivePath } from "../permission/sensitive.ts";
import { kib, readCapped } from "./read-capped.ts";

export const MAX_IMPORT_DEPTH = 4;

export type ImportedFile = { path: string; from: string; bytes: number; cut: boolean };

export type ImportContext = {
  home: string;
  reinDirs: readonly string[];
  cap: number;
  warnings: string[];
  imported: ImportedFile[];
  /**
   * Set when the workspace is not trusted: the repository's root (symlinks resolved). A file
   * inside it imports only files inside it.
   */
  confineTo?: string;
  /** every file already in the instructions (real paths): one imported again, or read directly before, is sent once */
  sent?: Set<string>;
};

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const IMPORT = /(^|\s)@((?:~\/|\.{0,2}\/)?[^\s`]+)/g;

/** `text` (read from `file`, whose chain of importers is `chain`) with its imports expanded in place. */
export function expandImports(text: string, file: string, ctx: ImportContext, chain: readonly string[] = [file]): string {
  let fence: string | undefined;
  return text
    .split("\n")
    .map((line, index) => {
      const mark = FENCE.exec(line)?.[1];
      if (mark && (!fence || (mark[0] === fence[0] && mark.length >= fence.length))) {
        fence = fence ? undefined : mark;
        return line;
      }
      if (fence) return line;
      // Odd pieces are code spans: left alone.
      return line
        .split(/(`+[^`]*`+)/)
        .map((piece, i) => (i % 2 ? piece : piece.replace(IMPORT, (all, pre: string, target: string) => importOne(all, pre, target, { file, line: index + 1 }, ctx, chain))))
        .join("");
    })
    .join("\n");
}

function importOne(all: string, pre: string, raw: string, at: { file: string; line: number }, ctx: ImportContext, chain: readonly string[]): string {
  const { file } = at;
  const trail = /[.,;:!?)\]]+$/.exec(raw)?.[0] ?? "";
  const target = raw.slice(0, raw.length - trail.length);
  if (!/[./]/.test(target)) return all; // `@someone`, not a path
  const abs = target.startsWith("~/") ? join(ctx.home, target.slice(2)) : resolve(dirname(file), target);
  const refuse = (why: string) => {
    ctx.warnings.push(`${file}:${at.line}: the import @${target} ${why}; it stays as written`);
    return all;
  };
  const confined = ctx.confineTo !== undefined && inside(ctx.confineTo, file) ? ctx.confineTo : undefined;
  const outside = (path: string) => `is not imported: ${path} is outside the repository, and this workspace is not trusted (run with --trust to import it)`;
  // Checked before the file is even looked at: an untrusted repository learns nothing of what is outside it.
  if (confined && !inside(confined, abs)) return looksLikeFile(target) || target.startsWith("~/") ? refuse(outside(abs)) : all;
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    // `@types/node`, `@biomejs/biome`: a package, not a file; only a path that looks like one is missed aloud
    return looksLikeFile(target) ? refuse(`names ${abs}, which does not exist`) : all;
  }
  const sensitive = sensitivePath(abs, ctx.home, ctx.reinDirs) ?? sensitivePath(real, ctx.home, ctx.reinDirs);
  if (sensitive) return refuse(`is denied: ${abs} is ${sensitive.reason}, which never goes to the model`);
  if (confined && !inside(confined, real)) return refuse(outside(`${abs} (a link to ${real})`));
  if (chain.includes(real)) return refuse(`is a cycle (${[...chain, real].join(" -> ")}) and is not expanded again`);
  if (chain.length > MAX_IMPORT_DEPTH) return refuse(`is more than ${MAX_IMPORT_DEPTH} imports deep and is not expanded`);
  // `CLAUDE.md` saying `@AGENTS.md` beside that AGENTS.md: its text is in the instructions once.
  if (ctx.sent?.has(real)) return `${pre}[${target}: its text is in these instructions already]${trail}`;
  ctx.sent?.add(real);
  const read = readCapped(real, ctx.cap);
  if ("problem" in read) return refuse(`names ${abs}, which is not read: ${read.problem}`);
  ctx.imported.push({ path: abs, from: file, bytes: read.bytes, cut: read.cut });
  if (read.cut) ctx.warnings.push(cutWarning(abs, read.bytes, ctx.cap));
  return `${pre}${expandImports(read.text, real, ctx, [...chain, real])}${trail}`;
}

function inside(top: string, path: string): boolean {
  const rel = relative(top, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

function looksLikeFile(target: string): boolean {
  return /\.[A-Za-z0-9]+$/.test(target) || /^(?:~|\.{1,2})?\//.test(target);
}

export function cutWarning(path: string, bytes: number, cap: number): string {
  return `${path} is ${kib(bytes)}: only its first ${kib(cap)} go to the model; shorten it (or raise REIN_INSTRUCTIONS_MAX_BYTES)`;
}
