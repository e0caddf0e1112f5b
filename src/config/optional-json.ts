// The one reader of an optional JSON file rein did not write (Claude Code's settings, OpenCode's
// config, .mcp.json, a plugin's manifest and parts): a missing file is nothing, a bad one is one
// problem naming what is wrong, which the caller turns into one warning naming the file and what
// was not loaded. rein's own config files (read-config-file.ts) read their text through it too,
// but a bad one of those is an error, not a warning.
import { missingFile, readOwnText, readProblem } from "../sdk/own-file.ts";
import { parseJsonc } from "./jsonc.ts";

/** Why a file that is there could not be used: it could not be read, is not JSON, or is JSON but not an object. */
export type JsonProblem = { problem: string; kind: "unreadable" | "invalid" | "not-object"; error?: unknown };

/**
 * The text of a file: undefined when it is missing (no such file, or a parent is a file), unless
 * `required`; otherwise the text or why it cannot be read (a FIFO, a folder, EACCES).
 */
export function readOptionalText(file: string, required = false): { text: string } | JsonProblem | undefined {
  try {
    return { text: readOwnText(file) };
  } catch (error) {
    if (!required && missingFile(error)) return undefined;
    return { problem: readProblem(error), kind: "unreadable", error };
  }
}

/** A JSON text's value (a leading BOM is dropped), or what is wrong with it; `jsonc` allows comments and trailing commas. */
export function parseJson(text: string, jsonc = false): { value: unknown } | JsonProblem {
  if (jsonc) {
    const value = parseJsonc(text);
    return typeof value === "string" ? { problem: `not valid JSON(C) (${value})`, kind: "invalid" } : { value };
  }
  try {
    return { value: JSON.parse(text.replace(/^\uFEFF/, "")) };
  } catch (error) {
    return { problem: `not valid JSON (${(error as Error).message.split("\n")[0]})`, kind: "invalid" };
  }
}

/** A JSON text's object, or what is wrong with it (not JSON, or JSON but no object). */
export function parseJsonObject(text: string, jsonc = false): { json: Record<string, unknown> } | JsonProblem {
  const parsed = parseJson(text, jsonc);
  if ("problem" in parsed) return parsed;
  return isRecord(parsed.value) ? { json: parsed.value } : { problem: "not a JSON object", kind: "not-object" };
}

/** An optional JSON object file: undefined when it is missing (unless `required`), its object, or what is wrong with it. */
export function readOptionalJson(file: string, options: { required?: boolean; jsonc?: boolean } = {}): { json: Record<string, unknown> } | JsonProblem | undefined {
  const read = readOptionalText(file, options.required);
  if (!read || "problem" in read) return read;
  return parseJsonObject(read.text, options.jsonc);
}

/**
 * The object of an optional JSON file, or undefined with one warning in `warnings`:
 * "FILE: PROBLEM; CONSEQUENCE" (for instance "its settings were not loaded").
 */
export function optionalJsonObject(file: string, warnings: string[], consequence: string, options: { required?: boolean; jsonc?: boolean } = {}): Record<string, unknown> | undefined {
  const read = readOptionalJson(file, options);
  if (read && "problem" in read) warnings.push(`${file}: ${read.problem}; ${consequence}`);
  return read && "json" in read ? read.json : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
