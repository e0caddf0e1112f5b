// Searches file contents with a regex: ripgrep when it is installed, the built-in search
// otherwise, the same output either way (see tools/lib/grep-search.ts).
import { basename, dirname } from "node:path";
import * as v from "valibot";
import { defineTool, envFile } from "rein/tool";
import description from "../prompts/tools/grep.txt" with { type: "text" };
import { compile, searchBuiltin, searchRipgrep, type GrepFound, type GrepQuery } from "./lib/grep-search.ts";
import { pathRequests } from "./lib/path-requests.ts";
import { INTERRUPTED, searchRoot } from "./lib/search-root.ts";
import { shownName } from "./lib/shown-name.ts";
import { formatBytes } from "./lib/text-file.ts";

const FILE_LIMIT = 100;
const LINE_LIMIT = 200;

export default defineTool({
  name: "grep",
  description,
  input: v.object({
    pattern: v.pipe(v.string(), v.minLength(1)),
    path: v.optional(v.string()),
    glob: v.optional(v.string()),
    ignore_case: v.optional(v.boolean()),
    output_mode: v.optional(v.picklist(["files", "content"])),
  }),
  readOnly: true,
  permissions: ({ path }, ctx) => pathRequests("read", path ?? ".", ctx.cwd),
  async run(input, ctx) {
    const where = await searchRoot(input.path, ctx.cwd);
    if ("error" in where) return { output: where.error, isError: true };
    const ignoreCase = input.ignore_case === true;
    const invalid = regexProblem(input.pattern, ignoreCase);
    if (invalid) return { output: invalid, isError: true };
    const content = input.output_mode === "content";
    const query: GrepQuery = {
      root: where.isFile ? dirname(where.root) : where.root,
      ...(where.isFile ? { only: basename(where.root) } : {}),
      pattern: input.pattern,
      ignoreCase,
      content,
      ...filterFor(where.isFile, input.glob),
      limit: content ? LINE_LIMIT : FILE_LIMIT,
      signal: ctx.signal,
      env: ctx.env,
      ...maxFileBytes(process.env),
    };
    // One file needs no walk, and rg would treat a named binary file differently.
    const rg = query.only === undefined ? ripgrep() : null;
    const found = (rg && (await searchRipgrep(rg, query))) || (await searchBuiltin(query));
    if (ctx.signal.aborted) return INTERRUPTED;
    return format(found, content, input.pattern, input.path);
  },
});

/** REIN_GREP_MAX_FILE_BYTES: files the built-in search skips (and reports) for size; default 4 GiB. */
function maxFileBytes(env: NodeJS.ProcessEnv): Pick<GrepQuery, "limits"> {
  const value = Number(env.REIN_GREP_MAX_FILE_BYTES);
  return Number.isInteger(value) && value > 0 ? { limits: { maxFileBytes: value } } : {};
}

/** rg when it is on PATH, unless REIN_GREP=builtin asks for the built-in search. */
function ripgrep(): string | null {
  return process.env.REIN_GREP === "builtin" ? null : Bun.which("rg");
}

function regexProblem(pattern: string, ignoreCase: boolean): string | undefined {
  try {
    compile(pattern, ignoreCase);
    return undefined;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `The regex is invalid: ${why}. Fix the pattern and call grep again; to match ( ) [ ] { } . * + ? | \\ literally, put a backslash before them.`;
  }
}

/**
 * A folder search leaves `.env`-family files out: they hold secrets, and reading one asks (name it as
 * the path to search it). A file named as the path is searched whatever its name.
 */
function filterFor(isFile: boolean, glob: string | undefined): Pick<GrepQuery, "filter"> {
  const byGlob = glob ? fileFilter(glob) : undefined;
  if (isFile) return byGlob ? { filter: byGlob } : {};
  return { filter: (rel) => !envFile(rel.slice(rel.lastIndexOf("/") + 1)) && (byGlob === undefined || byGlob(rel)) };
}

/** A glob without a slash matches file names at any depth; one with a slash, paths from the root. */
function fileFilter(glob: string): (rel: string) => boolean {
  const matcher = new Bun.Glob(glob.replace(/^\.\//, ""));
  if (glob.includes("/")) return (rel) => matcher.match(rel);
  return (rel) => matcher.match(rel.slice(rel.lastIndexOf("/") + 1));
}

function format({ hits, more, skipped }: GrepFound, content: boolean, pattern: string, path: string | undefined): string {
  const lines = hits.map((hit) => (content ? `${shownName(hit.path)}:${hit.line}:${hit.text}` : shownName(hit.path)));
  if (hits.length === 0) lines.push(`No matches for /${pattern}/${path === undefined ? "" : ` in ${path}`}${skipped ? " in the files searched" : ""}.`);
  if (more > 0) lines.push(`(${more} more ${content ? "matching lines" : "files"} not shown; narrow the pattern, path or glob)`);
  if (skipped) lines.push(skippedNote(skipped));
  return lines.join("\n");
}

function skippedNote(skipped: NonNullable<GrepFound["skipped"]>): string {
  const named = skipped.slice(0, 5).map((s) => `${shownName(s.path)} (${formatBytes(s.bytes)})`);
  const rest = skipped.length > 5 ? ` and ${skipped.length - 5} more` : "";
  const files = skipped.length === 1 ? "1 file was" : `${skipped.length} files were`;
  return `(${files} not searched, too big for the built-in search: ${named.join(", ")}${rest}; search it with bash (grep -n PATTERN FILE) or install ripgrep)`;
}
