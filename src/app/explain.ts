// Explains what the permission engine decides for a command line: every command found, every
// request, its decision, the rule that decided (or the built-in reason) and the "always" patterns.
// The same expansion and evaluation a real bash call gets.
import { tmpdir } from "node:os";
import { engineContext, expandRequests } from "../permission/engine.ts";
import { allowedByAnalysis, evaluate, type Action, type Rule } from "../permission/evaluate.ts";
import type { PermissionMode } from "../permission/modes.ts";
import { resolveForCheck } from "../permission/paths.ts";
import { sinkReason } from "../permission/sinks.ts";
import { ruleSet } from "./factory.ts";

export type Explanation = {
  decision: Action;
  /** with --tainted: why a session holding untrusted content asks a person for it, whatever the rules allow */
  tainted?: string;
  /** allowed only because the analysis found it read-only: it runs with nothing writable where the kernel sandbox works */
  read_only: boolean;
  commands: { argv: string[]; env?: string[]; wrappers?: string[]; cwd: string; opaque?: string }[];
  requests: {
    permission: string;
    pattern: string;
    decision: Action;
    always: string[];
    rule: { permission: string; pattern: string; action: Action; source: string } | null;
    reason: string | null;
  }[];
};

export type ExplainOptions = {
  cwd: string;
  projectRoot: string;
  home: string;
  reinDirs: string[];
  mode: PermissionMode;
  rules: { user: Rule[]; project: Rule[]; flags: Rule[]; tail?: Rule[] };
  /** folders outside the project that count as the workspace */
  directories?: readonly string[];
  /** the temp folder, open without an external_directory request (default: the system's) */
  tmp?: string;
  /** commands run in the kernel sandbox (the setting is not "off" and bubblewrap works); default: not */
  sandboxed?: boolean;
  /** decide as a session that read untrusted content (a web page, say) would: its sinks ask */
  tainted?: boolean;
};

export async function explainCommand(line: string, opts: ExplainOptions): Promise<Explanation> {
  const base = engineContext({ ...opts, tmp: opts.tmp ?? tmpdir() });
  const extra = (opts.directories ?? []).map((dir) => resolveForCheck(dir, "/", opts.home));
  const ctx = extra.length ? { ...base, openDirs: [...base.openDirs, ...extra] } : base;
  const { requests, commands } = await expandRequests([{ permission: "bash", pattern: line, always: [] }], ctx);
  const decision = evaluate(requests, ruleSet(opts.mode, opts.rules));
  const sink = opts.tainted && decision.action !== "deny" ? sinkReason(requests, { workspace: opts.projectRoot, home: opts.home, reinDirs: opts.reinDirs, fetchedHosts: new Set() }) : undefined;
  return {
    decision: sink ? "ask" : decision.action,
    ...(sink ? { tainted: `in a session that read untrusted content, ${sink}` } : {}),
    read_only: allowedByAnalysis(decision),
    commands: commands.map((c) => ({
      argv: c.argv,
      ...(c.env.length ? { env: c.env } : {}),
      ...(c.wrappers.length ? { wrappers: c.wrappers } : {}),
      cwd: c.cwd,
      ...(c.opaque ? { opaque: c.opaque } : {}),
    })),
    requests: explainedRequests(decision),
  };
}

/** Each request of an evaluated call with its decision, the rule that decided and the reason. */
export function explainedRequests(decision: ReturnType<typeof evaluate>): Explanation["requests"] {
  return decision.requests.map((d) => ({
    permission: d.request.permission,
    pattern: d.request.pattern,
    decision: d.action,
    always: d.request.always,
    rule: d.rule ? { permission: d.rule.permission, pattern: d.rule.pattern, action: d.rule.action, source: d.rule.source ?? "unknown" } : null,
    reason: d.reason ?? null,
  }));
}
