// `@path` imports in instruction files: relative to the importing file (`~/` is the home folder),
// at most MAX_IMPORT_DEPTH hops, never inside code spans or fences; a cycle, a missing file or a
// sensitive path leaves the `@path` as written and says why in a warning.
import { realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
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
};

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const IMPORT = /(^|\s)@((?:~\/|\.{0,2}\/)?[^\s`]+)/g;

/** `text` (read from `file`, whose chain of importers is `chain`) with its imports expanded in place. */
export function expandImports(text: string, file: string, ctx: ImportContext, chain: readonly string[] = [file]): string {
  let fence: string | undefined;
  return text
    .split("\n")
    .map((line) => {
      const mark = FENCE.exec(line)?.[1];
      if (mark && (!fence || (mark[0] === fence[0] && mark.length >= fence.length))) {
        fence = fence ? undefined : mark;
        return line;
      }
      if (fence) return line;
      // Odd pieces are code spans: left alone.
      return line
        .split(/(`+[^`]*`+)/)
        .map((piece, i) => (i % 2 ? piece : piece.replace(IMPORT, (all, pre: string, target: string) => importOne(all, pre, target, file, ctx, chain))))
        .join("");
    })
    .join("\n");
}

function importOne(all: string, pre: string, raw: string, file: string, ctx: ImportContext, chain: readonly string[]): string {
  const trail = /[.,;:!?)\]]+$/.exec(raw)?.[0] ?? "";
  const target = raw.slice(0, raw.length - trail.length);
  if (!/[./]/.test(target)) return all; // `@someone`, not a path
  const abs = target.startsWith("~/") ? join(ctx.home, target.slice(2)) : resolve(dirname(file), target);
  const refuse = (why: string) => {
    ctx.warnings.push(`${file}: the import @${target} ${why}; it stays as written`);
    return all;
  };
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    // `@types/node`, `@biomejs/biome`: a package, not a file; only a path that looks like one is missed aloud
    return looksLikeFile(target) ? refuse(`names ${abs}, which does not exist`) : all;
  }
  const sensitive = sensitivePath(abs, ctx.home, ctx.reinDirs) ?? sensitivePath(real, ctx.home, ctx.reinDirs);
  if (sensitive) return refuse(`is denied: ${abs} is ${sensitive.reason}, which never goes to the model`);
  if (chain.includes(real)) return refuse(`is a cycle (${[...chain, real].join(" -> ")}) and is not expanded again`);
  if (chain.length > MAX_IMPORT_DEPTH) return refuse(`is more than ${MAX_IMPORT_DEPTH} imports deep and is not expanded`);
  const read = readCapped(real, ctx.cap);
  if (!read) return refuse(`names ${abs}, which is not a readable file`);
  ctx.imported.push({ path: abs, from: file, bytes: read.bytes, cut: read.cut });
  if (read.cut) ctx.warnings.push(cutWarning(abs, read.bytes, ctx.cap));
  return `${pre}${expandImports(read.text, real, ctx, [...chain, real])}${trail}`;
}

function looksLikeFile(target: string): boolean {
  return /\.[A-Za-z0-9]+$/.test(target) || /^(?:~|\.{1,2})?\//.test(target);
}

export function cutWarning(path: string, bytes: number, cap: number): string {
  return `${path} is ${kib(bytes)}: only its first ${kib(cap)} go to the model; shorten it (or raise REIN_INSTRUCTIONS_MAX_BYTES)`;
}
