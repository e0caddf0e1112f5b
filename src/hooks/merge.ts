// Matching hooks run in parallel; their verdicts combine here, in configuration order: deny > ask >
// allow, any block blocks, reasons and contexts are all kept. Several replaced inputs merge: each
// hook's changes (fields it set differently from the original) are applied in order, so a later
// hook wins only on the fields both changed.
import type { Verdict } from "./outcome.ts";

/**
 * `reinStop`/`reinBlock`: a hook in rein's config stopped or blocked (rein's decisions apply); else a
 * stop or block came from Claude Code's files only. `claudeBlocks`: `[COMMAND]: REASON` of each of
 * their blocks; `claudeAllow`: the allow that won came from Claude Code's files.
 */
export type Merged = Omit<Verdict, "output" | "error" | "dialect" | "command"> & { errors: string[]; systemMessages: string[]; reinStop?: boolean; reinBlock?: boolean; claudeBlocks?: string[]; claudeAllow?: boolean };

const RANK = { allow: 1, ask: 2, deny: 3, block: 3 } as const;

export function mergeVerdicts(verdicts: readonly Verdict[], original: unknown): Merged {
  const merged: Merged = { errors: [], systemMessages: [] };
  const reasons: string[] = [];
  const contexts: string[] = [];
  const stops: string[] = [];
  const inputs: Record<string, unknown>[] = [];
  const claudeBlocks: string[] = [];
  for (const verdict of verdicts) {
    const claude = verdict.dialect === "claude";
    if (verdict.stop && !claude) merged.reinStop = true;
    if (verdict.decision === "block" || verdict.decision === "deny") {
      if (claude) claudeBlocks.push(`[${verdict.command ?? ""}]: ${verdict.reason ?? ""}`);
      else merged.reinBlock = true;
    }
    if (verdict.decision === "allow" && claude) merged.claudeAllow = true;
    if (verdict.error) merged.errors.push(verdict.error);
    if (verdict.systemMessage) merged.systemMessages.push(verdict.systemMessage);
    if (verdict.context) contexts.push(verdict.context);
    if (verdict.stop) stops.push(verdict.stop);
    if (verdict.updatedInput) inputs.push(verdict.updatedInput);
    if (verdict.updatedOutput !== undefined) merged.updatedOutput = verdict.updatedOutput;
    if (verdict.worktreePath) merged.worktreePath ??= verdict.worktreePath;
    if (!verdict.decision) continue;
    if (!merged.decision || RANK[verdict.decision] > RANK[merged.decision]) {
      merged.decision = verdict.decision;
      reasons.length = 0;
    }
    if (verdict.decision === merged.decision && verdict.reason) reasons.push(verdict.reason);
  }
  if (reasons.length) merged.reason = reasons.join("\n");
  if (claudeBlocks.length) merged.claudeBlocks = claudeBlocks;
  if (merged.decision !== "allow") delete merged.claudeAllow;
  if (contexts.length) merged.context = contexts.join("\n");
  if (stops.length) merged.stop = stops.join("\n");
  if (inputs.length) merged.updatedInput = mergeInputs(inputs, original);
  return merged;
}

function mergeInputs(inputs: readonly Record<string, unknown>[], original: unknown): Record<string, unknown> {
  if (inputs.length === 1) return inputs[0]!;
  const base: Record<string, unknown> = typeof original === "object" && original !== null ? { ...(original as Record<string, unknown>) } : {};
  const result = { ...base };
  for (const input of inputs) {
    for (const [key, value] of Object.entries(input)) {
      if (JSON.stringify(value) !== JSON.stringify(base[key])) result[key] = value;
    }
  }
  return result;
}
