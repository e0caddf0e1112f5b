// The two engines behind grep, giving the same hits for the same query: ripgrep when it is
// installed, and a built-in search over the shared walker with a JS RegExp. Both skip what the
// walker skips (gitignored paths, `.git`, `node_modules`, symlinks, binary files), filter paths
// the same way and keep only the first `limit` hits in path, then line, order.
import { join } from "node:path";
import { DEFAULT_LIMITS, searchFile, type GrepLimits } from "./grep-file.ts";
import { compare, walk } from "./walk.ts";

export type GrepQuery = {
  /** the folder searched; hit paths are relative to it */
  root: string;
  /** a single file (its name inside root) searched instead of the whole folder */
  only?: string;
  pattern: string;
  ignoreCase: boolean;
  /** whole lines (path, number, text), or only which files match */
  content: boolean;
  /** keeps a file when true for its relative path */
  filter?: (rel: string) => boolean;
  limit: number;
  signal: AbortSignal;
  /** the environment rg runs with (the tool context's: credentials removed); rein's own when absent */
  env?: Readonly<Record<string, string>>;
  /** the built-in search's bounds (tests make them small) */
  limits?: Partial<GrepLimits>;
};

/** `line` is 0 and `text` empty when only files are asked for. */
export type GrepHit = { path: string; line: number; text: string };
/** `skipped`: files the built-in search did not read, being over its size limit (largest first). */
export type GrepFound = { hits: GrepHit[]; more: number; skipped?: { path: string; bytes: number }[] };

const MAX_LINE = 300;
const PARALLEL_READS = 16;

/** The regex as both engines read it; throws a SyntaxError for an invalid one. */
export function compile(pattern: string, ignoreCase: boolean): RegExp {
  return new RegExp(pattern, ignoreCase ? "i" : "");
}

export async function searchBuiltin(q: GrepQuery): Promise<GrepFound> {
  const regex = compile(q.pattern, q.ignoreCase);
  const found = new Collector(q);
  const files = q.only !== undefined ? [q.only] : await filesUnder(q);
  const limits = { ...DEFAULT_LIMITS, ...q.limits };
  const skipped: { path: string; bytes: number }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length && !q.signal.aborted) {
      const rel = files[next++]!;
      const searched = await searchFile(join(q.root, rel), regex, q.content, limits, q.signal);
      if (searched.skippedBytes !== undefined) skipped.push({ path: rel, bytes: searched.skippedBytes });
      for (const hit of searched.hits) found.add({ path: rel, line: hit.line, text: hit.line ? lineText(hit.text) : "" });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_READS }, worker));
  return { ...found.result(), ...(skipped.length ? { skipped: skipped.sort((a, b) => b.bytes - a.bytes || compare(a.path, b.path)) } : {}) };
}

/** Undefined when rg could not do the search (it rejects the regex, or fails to start). */
export async function searchRipgrep(rg: string, q: GrepQuery): Promise<GrepFound | undefined> {
  if (q.signal.aborted) return { hits: [], more: 0 };
  const args = [
    rg,
    "--no-config",
    "--no-messages",
    "--color=never",
    "--hidden",
    // gitignore files even outside a repository, and no other ignore files: what the walker reads
    "--no-require-git",
    "--no-ignore-dot",
    "--no-ignore-exclude",
    "--no-ignore-global",
    "--glob=!.git",
    "--glob=!node_modules",
    ...(q.ignoreCase ? ["--ignore-case"] : []),
    // Files as `path\0count` lines (a count of 1: a file's search stops at its first match, as -l's
    // does), not `-l --null`: rg's output is line-buffered, so -l --null leaves it in 1 KiB blocks
    // (73 writes instead of 2,500 on the bench tree), and on a busy CPU that run took 1.3-1.6x the
    // wall time of `rg -l` at the same CPU time; these lines go out as `rg -l`'s do.
    ...(q.content ? ["--line-number", "--no-heading", "--with-filename"] : ["--count", "--max-count=1"]),
    "--null",
    "--regexp",
    q.pattern,
    "--",
    q.only ?? ".",
  ];
  let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(args, { cwd: q.root, ...(q.env ? { env: { ...q.env } } : {}), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  } catch {
    return undefined;
  }
  const kill = () => proc.kill("SIGKILL");
  q.signal.addEventListener("abort", kill, { once: true });
  try {
    const found = new Collector(q);
    const stderr = new Response(proc.stderr).text();
    for await (const record of lineRecords(proc.stdout)) {
      const hit = q.content ? parseLine(record) : parseCount(record);
      if (hit) found.add({ ...hit, path: hit.path.replace(/^\.\//, "") });
    }
    // Exit 2 also reports unreadable files, which --no-messages keeps out of stderr.
    if ((await proc.exited) === 2 && (await stderr).trim() !== "") return undefined;
    return found.result();
  } finally {
    q.signal.removeEventListener("abort", kill);
  }
}

/** Keeps the first `limit` hits in order, pruning as it goes so memory stays bounded. */
class Collector {
  private hits: GrepHit[] = [];
  private dropped = 0;
  constructor(private readonly q: Pick<GrepQuery, "filter" | "limit">) {}

  add(hit: GrepHit): void {
    if (this.q.filter && !this.q.filter(hit.path)) return;
    this.hits.push(hit);
    if (this.hits.length >= this.q.limit * 10) this.prune();
  }

  result(): GrepFound {
    this.prune();
    return { hits: this.hits, more: this.dropped };
  }

  private prune(): void {
    this.hits.sort((a, b) => compare(a.path, b.path) || a.line - b.line);
    this.dropped += Math.max(0, this.hits.length - this.q.limit);
    this.hits.length = Math.min(this.hits.length, this.q.limit);
  }
}

async function filesUnder(q: GrepQuery): Promise<string[]> {
  const files: string[] = [];
  for await (const entries of walk(q.root, q.signal)) {
    for (const entry of entries) if (entry.kind === "file" && (!q.filter || q.filter(entry.rel))) files.push(entry.rel);
  }
  return files;
}

/** rg's `path\0number:text` line. */
function parseLine(record: string): GrepHit | undefined {
  const match = /^([^\0]*)\0(\d+):/.exec(record);
  if (!match) return undefined;
  return { path: match[1]!, line: Number(match[2]), text: lineText(record.slice(match[0].length)) };
}

/** rg's `path\0count` line: the path of a file that matches. */
function parseCount(record: string): GrepHit | undefined {
  const end = record.indexOf("\0");
  return end < 0 ? undefined : { path: record.slice(0, end), line: 0, text: "" };
}

function lineText(line: string): string {
  const text = line.endsWith("\r") ? line.slice(0, -1) : line;
  return text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}… (line cut)` : text;
}

/** rg's lines, `path\0number:text` or `path\0count`: a line break before the \0 belongs to the file's name. */
async function* lineRecords(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let pending: string | undefined;
  for await (const piece of records(stream, "\n")) {
    const record = pending === undefined ? piece : `${pending}\n${piece}`;
    if (record.includes("\0")) {
      pending = undefined;
      yield record;
    } else pending = record;
  }
}

async function* records(stream: ReadableStream<Uint8Array>, separator: string): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of stream) {
    // Split only the new text: a long line over many chunks must not be rescanned each time.
    const parts = decoder.decode(chunk, { stream: true }).split(separator);
    if (parts.length === 1) {
      rest += parts[0];
      continue;
    }
    parts[0] = rest + parts[0];
    rest = parts.pop()!;
    yield* parts;
  }
  rest += decoder.decode();
  if (rest !== "") yield rest;
}
