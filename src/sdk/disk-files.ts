// The file access tools get when no editor serves the files: the disk, read in bounded pieces.
import type * as FsPromises from "node:fs/promises";
import type { FileAccess } from "../sdk.ts";

// node:fs/promises costs a one-shot that reads no file about 2 ms at start: taken at the first file.
const fsp = () => require("node:fs/promises") as typeof FsPromises;

const CHUNK_BYTES = 64 * 1024;

export const diskFiles: FileAccess = {
  async *readText(path, signal) {
    const handle = await fsp().open(path, "r");
    try {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      // The byte-order mark stays in the text, so an edit writes it back.
      const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
      for (;;) {
        signal?.throwIfAborted();
        const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
        if (bytesRead === 0) break;
        yield decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      }
      const rest = decoder.decode();
      if (rest) yield rest;
    } finally {
      await handle.close();
    }
  },
  writeText: (path, content) => fsp().writeFile(path, content),
};

/** A file's whole text through `access`. */
export async function readAllText(access: FileAccess, path: string, signal?: AbortSignal): Promise<string> {
  let text = "";
  for await (const piece of access.readText(path, signal)) text += piece;
  return text;
}
