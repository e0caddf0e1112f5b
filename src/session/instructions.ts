// The system prompt: prompts/system.txt, a line of environment, and the user's and the project's
// instructions (AGENTS.md, or CLAUDE.md when the project has no AGENTS.md). Each instruction file
// is capped (32 KiB by default, as Codex does): a huge one would make every request too long.
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import base from "../../prompts/system.txt" with { type: "text" };

export const INSTRUCTION_CAP_BYTES = 32 * 1024;

export type InstructionSources = {
  projectRoot: string;
  userInstructions: string;
  cwd: string;
  now?: Date;
  /** bytes kept of each instruction file (REIN_INSTRUCTIONS_MAX_BYTES) */
  maxBytes?: number;
};

export type InstructionFile = { path: string; scope: "user" | "project"; text: string; bytes: number; cut: boolean };

export function systemPrompt(sources: InstructionSources): string {
  const date = (sources.now ?? new Date()).toISOString().slice(0, 10);
  const parts = [base.trim(), `Workspace: ${sources.cwd} (${process.platform}), date ${date}.`];
  for (const file of instructionFiles(sources)) {
    const note = file.cut ? `\n[rein: cut here; the file is ${file.bytes} bytes and only the first ${sources.maxBytes ?? INSTRUCTION_CAP_BYTES} are sent]` : "";
    parts.push(`Instructions from the ${file.scope} (${file.path}):\n${file.text}${note}`);
  }
  return parts.join("\n\n");
}

/** The instruction files that go into the prompt, in order, each read up to the cap. */
export function instructionFiles(sources: InstructionSources): InstructionFile[] {
  const cap = sources.maxBytes ?? INSTRUCTION_CAP_BYTES;
  const projectFile = ["AGENTS.md", "CLAUDE.md"].map((f) => join(sources.projectRoot, f)).find(existsSync);
  const files: InstructionFile[] = [];
  for (const [path, scope] of [[sources.userInstructions, "user"], [projectFile, "project"]] as const) {
    const read = path ? readCapped(path, cap) : undefined;
    if (read?.text) files.push({ path: path!, scope, ...read });
  }
  return files;
}

/** One line per instruction file that was cut, naming it: for front ends to show (and rein doctor). */
export function instructionWarnings(sources: InstructionSources): string[] {
  const cap = sources.maxBytes ?? INSTRUCTION_CAP_BYTES;
  return instructionFiles(sources)
    .filter((f) => f.cut)
    .map((f) => `${f.path} is ${kib(f.bytes)}: only its first ${kib(cap)} go to the model; shorten it (or raise REIN_INSTRUCTIONS_MAX_BYTES)`);
}

/** The file's first `cap` bytes (never more is read), cut back to a whole UTF-8 character. */
function readCapped(path: string, cap: number): { text: string; bytes: number; cut: boolean } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const bytes = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(bytes, cap));
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const cut = bytes > cap;
    const kept = cut ? buffer.subarray(0, wholeCharEnd(buffer.subarray(0, length))) : buffer.subarray(0, length);
    return { text: kept.toString("utf8").trim(), bytes, cut };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Where the last whole UTF-8 character ends in bytes cut at an arbitrary point. */
function wholeCharEnd(bytes: Uint8Array): number {
  let end = bytes.length;
  let back = 0;
  while (end > 0 && back < 4 && (bytes[end - 1]! & 0xc0) === 0x80) {
    end--;
    back++;
  }
  if (end === 0) return bytes.length;
  const lead = bytes[end - 1]!;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return size === back + 1 ? bytes.length : end - 1;
}

function kib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}
