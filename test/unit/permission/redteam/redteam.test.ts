// Every red-team corpus in this folder through the whole engine (test/unit/permission/redteam/*.ts
// other than this runner and the fixture). A corpus file exports any of:
//   attacks: string[]      lines that must never be allowed, under the default rules or ALLOW_LIST
//   benign: string[]       everyday lines that must be allowed under the default rules
//   credentials: string[]  lines reaching a credential that must be denied in auto mode too
//   auto: string[]         lines auto mode must not allow, with a sandbox or without (a secret a program prints)
//   unsandboxed: string[]  lines whose reads the analysis cannot resolve: auto mode, where no kernel
//                          sandbox hides the credentials, must not allow them
//   setup(dirs): void      creates what its lines need inside dirs.workspace / dirs.home
//   ownDirs: true          its lines run in folders of their own (a setup the others must not see)
// Lines run with the workspace as cwd; `$WS` and `$HOME_DIR` in a line stand for the real paths.
import { afterAll, describe, expect, test } from "bun:test";
import { Glob } from "bun";
import type { Rule } from "../../../../src/permission/evaluate.ts";
import type { PermissionMode } from "../../../../src/permission/modes.ts";
import { explainCommand } from "../../../../src/app/explain.ts";
import { redTeamDirs, type RedTeamDirs } from "./fixture.ts";

type Corpus = { attacks?: string[]; benign?: string[]; credentials?: string[]; auto?: string[]; unsandboxed?: string[]; setup?: (dirs: RedTeamDirs) => void; ownDirs?: boolean };

/** A typical user's allow-list. */
export const ALLOW_LIST: Rule[] = ["git status *", "npm test *", "ls *", "cat *"].map((pattern) => ({ permission: "bash", pattern, action: "allow" }));

const shared = redTeamDirs();
const made = [shared];
afterAll(() => made.forEach((d) => d.remove()));
const files = [...new Glob("*.ts").scanSync(import.meta.dir)].filter((f) => f !== "fixture.ts" && !f.endsWith(".test.ts")).sort();
const corpora: [string, Corpus, RedTeamDirs][] = [];
for (const file of files) {
  const corpus = (await import(`./${file}`)) as Corpus;
  const dirs = corpus.ownDirs ? redTeamDirs() : shared;
  if (dirs !== shared) made.push(dirs);
  corpora.push([file, corpus, dirs]);
}
for (const [, corpus, dirs] of corpora) corpus.setup?.(dirs);

// Each corpus runs its lines one after another through the whole engine: more than bun's 5 s on a busy machine.
const TIMEOUT_MS = 120_000;

for (const [file, corpus, dirs] of corpora) {
  const fill = (line: string) => line.replaceAll("$WS", dirs.workspace).replaceAll("$HOME_DIR", dirs.home);
  const decide = async (line: string, mode: PermissionMode, flags: Rule[], sandboxed = false) =>
    (await explainCommand(fill(line), { cwd: dirs.workspace, projectRoot: dirs.workspace, home: dirs.home, reinDirs: [], tmp: dirs.tmp, mode, rules: { user: [], project: [], flags }, sandboxed })).decision;
  describe(file, () => {
    if (corpus.attacks?.length) {
      test(`none of ${corpus.attacks.length} attack lines is allowed, by the defaults or by a typical allow-list`, async () => {
        const allowed: string[] = [];
        for (const line of corpus.attacks ?? []) {
          if ((await decide(line, "default", [])) === "allow") allowed.push(`default: ${line}`);
          if ((await decide(line, "default", ALLOW_LIST)) === "allow") allowed.push(`allow-list: ${line}`);
        }
        expect(allowed).toEqual([]);
      }, TIMEOUT_MS);
    }
    if (corpus.benign?.length) {
      test(`all ${corpus.benign.length} everyday lines are allowed without asking`, async () => {
        const asked: string[] = [];
        for (const line of corpus.benign ?? []) {
          const decision = await decide(line, "default", []);
          if (decision !== "allow") asked.push(`${decision}: ${line}`);
        }
        expect(asked).toEqual([]);
      }, TIMEOUT_MS);
    }
    if (corpus.credentials?.length) {
      test(`all ${corpus.credentials.length} credential reads are denied in auto mode`, async () => {
        const notDenied: string[] = [];
        for (const line of corpus.credentials ?? []) {
          const decision = await decide(line, "auto", []);
          if (decision !== "deny") notDenied.push(`${decision}: ${line}`);
          // A sandbox hides what a run lets through, never what the analysis denies.
          if ((await decide(line, "auto", [], true)) !== "deny") notDenied.push(`sandboxed, ${decision}: ${line}`);
        }
        expect(notDenied).toEqual([]);
      }, TIMEOUT_MS);
    }
    if (corpus.auto?.length) {
      test(`none of ${corpus.auto.length} lines is allowed in auto mode, with a sandbox or without`, async () => {
        const allowed: string[] = [];
        for (const line of corpus.auto ?? []) {
          if ((await decide(line, "auto", [])) === "allow") allowed.push(line);
          if ((await decide(line, "auto", [], true)) === "allow") allowed.push(`sandboxed: ${line}`);
        }
        expect(allowed).toEqual([]);
      }, TIMEOUT_MS);
    }
    if (corpus.unsandboxed?.length) {
      test(`none of ${corpus.unsandboxed.length} lines whose reads cannot be resolved is allowed in auto mode without a sandbox`, async () => {
        const allowed: string[] = [];
        for (const line of corpus.unsandboxed ?? []) if ((await decide(line, "auto", [])) === "allow") allowed.push(line);
        expect(allowed).toEqual([]);
      }, TIMEOUT_MS);
    }
  });
}
