// A yes/no question before something runs code: asked on a terminal (No unless the answer is y),
// answered by --yes, and refused headless without it (nobody is there to answer).
import { createInterface } from "node:readline";
import { UsageError } from "../../app/args.ts";
import { bothTerminals, err } from "../../app/output.ts";

export async function askYes(question: string, yes: boolean, headless: string): Promise<boolean> {
  if (yes) return true;
  if (!(await bothTerminals())) throw new UsageError(headless);
  err(`${question} [y/N] `);
  const lines = createInterface({ input: process.stdin, terminal: false });
  try {
    for await (const line of lines) return /^\s*y(es)?\s*$/i.test(line);
    return false;
  } finally {
    lines.close();
  }
}
