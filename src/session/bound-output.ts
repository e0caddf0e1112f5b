// Keeps what the model reads of a tool's output bounded: head and tail with a marker between, the
// full text saved under the data folder's output/ with its path given to the model.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type Bound = (output: string, toolUseId: string) => { output: string; truncated: boolean };

export function boundOutput(outputDir: string, sessionId: string, maxChars = 30_000): Bound {
  return (output, toolUseId) => {
    if (output.length <= maxChars) return { output, truncated: false };
    const head = output.slice(0, Math.floor(maxChars * 0.4));
    const tail = output.slice(output.length - Math.floor(maxChars * 0.6));
    const omitted = output.length - head.length - tail.length;
    const saved = save(outputDir, sessionId, toolUseId, output);
    const where = saved
      ? `The full output (${output.length} characters, ${lineCount(output)} lines) is saved at ${saved}; read the omitted part with the read tool (path ${saved}, offset ${lineCount(head) + 1}) or search it with grep.`
      : "The full output could not be saved.";
    return { output: `${head}\n\n[... ${omitted} characters omitted. ${where}]\n\n${tail}`, truncated: true };
  };
}

function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

function save(outputDir: string, sessionId: string, toolUseId: string, output: string): string | undefined {
  try {
    const dir = join(outputDir, sessionId);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${toolUseId.replace(/[^\w-]/g, "_")}.txt`);
    writeFileSync(path, output);
    return path;
  } catch {
    return undefined;
  }
}
