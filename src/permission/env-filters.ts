// A word that selects `.env` files by name: a search filter (`grep -r --include=.env`, `rg -g
// '.env*'`, `find -name .env.local`) or an operand naming one. Its value asks like the file itself,
// since what the command then reads is the file. echo and printf only print the word.
import { basename } from "node:path";
import { globMatcher } from "./options/glob.ts";
import { envFile } from "./sensitive.ts";

const SAMPLES = [".env", ".env.local", ".env.production", ".envrc", "prod.env", ".env~"];
const PRINTERS = new Set(["echo", "printf"]);

/** The word of `argv` that selects an environment file, or undefined. */
export function envFilter(argv: readonly string[]): string | undefined {
  if (PRINTERS.has(basename(argv[0] ?? ""))) return undefined;
  for (const word of argv.slice(1)) {
    const value = word.includes("=") ? word.slice(word.indexOf("=") + 1) : word;
    if (/env/i.test(value) && selectsEnv(value)) return word;
  }
  return undefined;
}

/** Whether a name or a glob (`{a,b}` alternatives too) can name an environment file. */
export function selectsEnv(value: string): boolean {
  const names = value.includes("{") ? value.split(/[{},]/) : [value];
  return names.some((part) => {
    const name = basename(part);
    return envFile(name) || (/[*?[]/.test(name) && (name.startsWith(".") || /env/i.test(name)) && SAMPLES.some((sample) => globMatcher(name, true).test(sample)));
  });
}
