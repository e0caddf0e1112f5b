// Reads a window of a text file as numbered lines, never more of the file than the window needs.
// Images are described and attached to the result, so a model that takes images sees them.
import { open, readdir, readFile, stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import { basename, dirname, extname } from "node:path";
import * as v from "valibot";
import { defineTool, imageProblem, type ToolResult } from "rein/tool";
import description from "../prompts/tools/read.txt" with { type: "text" };
import { pathRequests, resolvePath } from "./lib/path-requests.ts";
import { readWindow, type LineWindow } from "./lib/read-window.ts";
import { shownName } from "./lib/shown-name.ts";
import { fileStamp, formatBytes, fsErrorText, similarity, stampingPieces } from "./lib/text-file.ts";

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;
// Keeps a window of long lines inside what the loop passes on unabridged, so the continuation note survives.
const MAX_WINDOW_CHARS = 50_000;
const SNIFF_BYTES = 8192;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };
const ARCHIVES = new Set([".zip", ".jar", ".war", ".whl", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tar"]);
const BINARY = new Set([
  ...ARCHIVES,
  ...[".exe", ".dll", ".so", ".dylib", ".o", ".a", ".lib", ".bin", ".class", ".pyc", ".wasm", ".node"],
  ...[".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods"],
  ...[".bmp", ".ico", ".tif", ".tiff", ".psd", ".heic", ".avif"],
  ...[".mp3", ".wav", ".flac", ".ogg", ".mp4", ".mov", ".avi", ".mkv", ".webm"],
  ...[".ttf", ".otf", ".woff", ".woff2", ".sqlite", ".db", ".iso", ".dmg"],
]);

export default defineTool({
  name: "read",
  description,
  input: v.object({
    path: v.string(),
    offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  }),
  readOnly: true,
  permissions: ({ path }, { cwd }) => pathRequests("read", path, cwd),
  async run({ path, offset = 1, limit = DEFAULT_LIMIT }, ctx) {
    const absolute = resolvePath(path, ctx.cwd);
    let info: Stats;
    try {
      info = await stat(absolute);
    } catch (error) {
      return { output: await missingText(error, absolute), isError: true };
    }
    if (info.isDirectory()) return fail(`${absolute} is a directory: use list or glob to see what it holds.`);
    if (!info.isFile()) return fail(`${absolute} is not a regular file (a device, socket or pipe); read opens regular files only.`);
    try {
      const head = await readHead(absolute);
      const ext = extname(absolute).toLowerCase();
      const mediaType = imageType(head) ?? IMAGE_TYPES[ext];
      if (mediaType) return await readImage(absolute, mediaType, info.size);
      if (BINARY.has(ext) || head.includes(0)) return fail(binaryText(absolute, ext));
      const text = stampingPieces(ctx.fileAccess.readText(absolute, ctx.signal));
      const window = await readWindow(text.pieces, { offset, limit, maxLineChars: MAX_LINE_CHARS, maxChars: MAX_WINDOW_CHARS, signal: ctx.signal });
      if (window.lines.length === 0 && window.total) {
        return fail(`offset ${offset} is past the end of ${absolute}, which has ${window.total} lines. Read from an offset between 1 and ${window.total}.`);
      }
      ctx.files.recordRead(absolute, text.stamp(info) ?? (await fileStamp(absolute, info, ctx.fileAccess)));
      if (window.total === 0) return `${absolute} is empty.`;
      return formatWindow(window, offset);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      return fail(fsErrorText(error, absolute));
    }
  },
});

function formatWindow(window: LineWindow, offset: number): string {
  const numbered = window.lines.map(({ text, cut }, i) => {
    const number = String(offset + i).padStart(6);
    return `${number}\t${text}${cut ? ` [… line cut at ${MAX_LINE_CHARS} characters]` : ""}`;
  });
  const notes: string[] = [];
  const lastShown = offset + window.lines.length - 1;
  if (window.lines.some((line) => line.cut)) {
    notes.push(`Some lines are longer than ${MAX_LINE_CHARS} characters; see the rest with bash (e.g. cut -c${MAX_LINE_CHARS + 1}-).`);
  }
  if (window.more) {
    const follow = window.unsure ? "More lines may follow" : "More lines follow";
    notes.push(`Showing lines ${offset}-${lastShown}. ${follow}: read with offset=${lastShown + 1} to continue.`);
  }
  return notes.length === 0 ? numbered.join("\n") : `${numbered.join("\n")}\n\n(${notes.join(" ")})`;
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const buffer = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The image type the content's signature says, whatever the file's extension. */
function imageType(head: Uint8Array): string | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head[0] === 0x89 && ascii(1, 4) === "PNG") return "image/png";
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (ascii(0, 4) === "GIF8") return "image/gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return undefined;
}

async function readImage(path: string, mediaType: string, size: number): Promise<ToolResult> {
  const summary = `${path} is an image (${mediaType}, ${formatBytes(size)}).`;
  if (size > MAX_IMAGE_BYTES) {
    return `${summary} It is over the ${formatBytes(MAX_IMAGE_BYTES)} limit for images, so its data is not attached; shrink a copy with bash (e.g. convert -resize) to see it.`;
  }
  const bytes = await readFile(path);
  const problem = imageProblem(mediaType, bytes);
  if (problem) {
    return fail(`${path} is not a usable ${mediaType} image: ${problem}. It was not attached. Check the file with bash (file, xxd | head), or regenerate it.`);
  }
  return { output: summary, images: [{ mediaType, base64: bytes.toString("base64") }], metadata: { image: { mediaType, bytes: size } } };
}

function binaryText(path: string, ext: string): string {
  const what = `${path} is a binary file; read shows text only.`;
  if (ARCHIVES.has(ext)) return `${what} List its contents with bash (unzip -l, tar -tf).`;
  if (ext === ".pdf") return `${what} Extract its text with bash (pdftotext ${basename(path)} -) if that is installed.`;
  return `${what} Inspect it with bash if needed (file, xxd | head).`;
}

async function missingText(error: unknown, path: string): Promise<string> {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") return fsErrorText(error, path);
  const name = basename(path).toLowerCase();
  const near = await readdir(dirname(path)).then(
    (names) =>
      names
        .map((entry) => ({ entry, score: similarity(entry.toLowerCase(), name) }))
        .filter(({ score }) => score >= 0.5)
        .sort((a, b) => b.score - a.score)
        .slice(0, 3)
        .map(({ entry }) => shownName(entry)),
    () => [],
  );
  const hint = near.length > 0 ? ` Similar names in ${dirname(path)}: ${near.join(", ")}.` : "";
  return `${path} does not exist.${hint} Find files by name with glob.`;
}

function fail(output: string): ToolResult {
  return { output, isError: true };
}
