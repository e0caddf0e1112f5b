// Table-driven checks for analyzeShell: each case states the exact commands (argv, in order) and,
// where it matters, the rest of each command and the redirects.
import { expect, test } from "bun:test";
import { analyzeShell } from "../../../../src/permission/shell/analyze.ts";
import type { Redirect, ShellAnalysis, ShellCommand } from "../../../../src/permission/shell/types.ts";

export const CWD = "/w";
export const HOME = "/home/u";

export type Case = {
  line: string;
  /** Exactly these commands, in order. */
  argv?: string[][];
  /** Each command matches (toMatchObject) the object at its index; lengths must be equal. */
  commands?: Partial<ShellCommand>[];
  /** Whether each command is opaque, in order. */
  opaque?: boolean[];
  /** Exactly these redirects. */
  redirects?: Redirect[];
  error?: true;
  cwd?: string;
};

export function analyze(line: string, cwd = CWD): Promise<ShellAnalysis> {
  return analyzeShell(line, cwd, HOME);
}

export function runCases(cases: Case[]): void {
  for (const c of cases) {
    test(JSON.stringify(c.line), async () => {
      const result = await analyze(c.line, c.cwd);
      if (c.error) {
        expect(result.error).toBeString();
        return;
      }
      expect(result.error).toBeUndefined();
      if (c.argv) expect(result.commands.map((command) => command.argv)).toEqual(c.argv);
      if (c.commands) expect(result.commands).toMatchObject(c.commands);
      if (c.opaque) expect(result.commands.map((command) => command.opaque !== undefined)).toEqual(c.opaque);
      if (c.redirects) expect(result.redirects).toEqual(c.redirects);
    });
  }
}

export const write = (target: string, path: string, dynamic?: true): Redirect => ({ kind: "write", target, path, ...(dynamic ? { dynamic } : {}) });
export const read = (target: string, path: string): Redirect => ({ kind: "read", target, path });
