// Reading and writing a config file as a plain JSON object, for the commands that change one key of
// it (saved approvals, rein mcp add/remove) and keep the rest as it was. Writes replace atomically.
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { readOwnText } from "../sdk/own-file.ts";

/** The file's object ({} when there is no file), or undefined when it is not a JSON object. */
export function readConfigObject(file: string): Record<string, unknown> | undefined {
  if (!existsSync(file)) return {};
  try {
    const value = JSON.parse(readOwnText(file)) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // not JSON: the caller says what it left alone
  }
  return undefined;
}

/** Writes the object (mode 0600), replacing the file in one rename. */
export function writeConfigObject(file: string, config: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}
