// The permission broker: evaluates a call's requests against the rules and the run-time approvals,
// and turns an "ask" into an event that whoever holds the session answers.
import type { Authorization, AuthorizeInput, PermissionReply } from "../agent/types.ts";
import { allowedByAnalysis, evaluate, formatRule, type PermissionRequest, type Rule } from "../permission/evaluate.ts";

/** `tainted`: the session holds content that can steer the model, and this call could carry data out or plant code: no rule lifts the ask */
export type Ask = { id: string; toolUseId: string; tool: string; requests: PermissionRequest[]; reason?: string; tainted?: string };
export type Answer = {
  reply: PermissionReply;
  message?: string;
  stop?: boolean;
  /** the whole text the model gets for a rejection, replacing the default wording (used by policies) */
  explain?: string;
};
/** Answers asks without a person (print mode's --on-ask). Returning undefined leaves the ask open. */
export type AskPolicy = (ask: Ask) => Answer | undefined;

export type BrokerIO = {
  rules: () => readonly Rule[];
  /** what the rules see of a call's requests (the permission engine: shell lines, resolved paths) */
  expand?: (requests: PermissionRequest[]) => Promise<PermissionRequest[]>;
  emitAsk: (ask: Ask) => void;
  emitReply: (id: string, answer: Answer) => void;
  policy?: AskPolicy;
  newId: () => string;
  /** approvals in force from the start and never listed (the session's own saved outputs); a configured deny still wins */
  standing?: readonly Rule[];
  /** approvals for the run under way only (a command's or skill's allowed-tools); a configured deny still wins */
  granted?: () => readonly Rule[];
  /** asked before a person is (PermissionRequest hooks): an answer settles the ask without one */
  beforeAsk?: (ask: Ask, input: unknown) => Promise<Answer | undefined>;
  /** why these requests must ask whatever the rules allow (a tainted session's sinks); a deny still denies */
  gate?: (requests: PermissionRequest[]) => string | undefined;
};

export class PermissionBroker {
  readonly approvals: Rule[] = [];
  private readonly open = new Map<string, { ask: Ask; resolve: (answer: Answer) => void }>();

  constructor(private readonly io: BrokerIO) {}

  /** What the rules and approvals decide for these requests, asking nobody: why not (a phrase), or allowed. */
  async decide(requests: PermissionRequest[]): Promise<{ allow: true; readOnly: boolean } | { allow: false; why: string }> {
    const expanded = this.io.expand ? await this.io.expand(requests) : requests;
    const decision = evaluate(expanded, this.io.rules(), [...(this.io.standing ?? []), ...(this.io.granted?.() ?? []), ...this.approvals]);
    if (decision.action === "allow") return { allow: true, readOnly: allowedByAnalysis(decision) };
    const first = decision.requests.find((d) => d.action !== "allow")!;
    const by = first.rule ? ` by the rule "${formatRule(first.rule)}"` : "";
    return { allow: false, why: first.action === "deny" ? `${formatRule(first.request)} is denied${by}` : `${formatRule(first.request)} needs permission and nobody is asked for it here` };
  }

  async authorize(call: AuthorizeInput): Promise<Authorization> {
    const requests = this.io.expand ? await this.io.expand(call.requests) : call.requests;
    const decision = evaluate(requests, this.io.rules(), [...(this.io.standing ?? []), ...(this.io.granted?.() ?? []), ...this.approvals]);
    if (decision.action === "deny") {
      const denied = decision.requests.find((d) => d.action === "deny")!;
      const by = denied.rule ? ` by the rule "${formatRule(denied.rule)}"${denied.rule.source ? ` (${denied.rule.source})` : ""}` : "";
      const why = denied.reason ? `: ${denied.reason}` : "";
      return {
        allow: false,
        message: `Permission denied: ${formatRule(denied.request)} is forbidden${by}${why}. Do not try to reach the same result another way; tell the user what you needed.`,
      };
    }
    const gated = this.io.gate?.(requests);
    const reason = [call.reason, gated].filter(Boolean).join("; ") || undefined;
    if (decision.action === "allow" && !reason) return { allow: true, ...(allowedByAnalysis(decision) ? { readOnly: true } : {}) };

    const pending = gated ? decision.requests.map((d) => d.request) : decision.requests.filter((d) => d.action !== "allow").map((d) => d.request);
    // A Claude Code PreToolUse hook's allow answers the ask, as it does in Claude Code; a sensitive path's fixed ask, or a tainted session's sink, still goes to a person.
    if (call.hookAllow && !reason && pending.every((request) => !request.fixed)) return { allow: true };
    const ask: Ask = {
      id: this.io.newId(),
      toolUseId: call.toolUseId,
      tool: call.tool,
      requests: pending.length > 0 ? pending : requests,
      ...(reason ? { reason } : {}),
      ...(gated ? { tainted: gated } : {}),
    };
    // No hook: the ask is made in the same tick (a reply given at once to another ask depends on it).
    const early = this.io.beforeAsk ? await this.io.beforeAsk(ask, call.input) : undefined;
    const answer = early ?? (await this.ask(ask));
    // Only a yes allows: anything else a hook, policy or client gives back is a rejection.
    if (answer.reply === "once" || answer.reply === "always") return { allow: true };
    const because = answer.message ? ` The user said: ${answer.message}` : "";
    return {
      allow: false,
      message: answer.explain ?? `The user rejected this tool call; it did not run.${because}`,
      ...(answer.stop ? { stop: true } : {}),
    };
  }

  /**
   * Answers an open ask; false when there is none with that id (already answered, or unknown).
   * A rejection rejects the session's other open asks too; an "always" also answers the open asks
   * its new approvals now cover.
   */
  reply(id: string, reply: PermissionReply, message?: string): boolean {
    const entry = this.open.get(id);
    if (!entry) return false;
    this.settle(id, { reply, ...(message ? { message } : {}) });
    if (reply === "reject") this.rejectAll("rejected together with another call the user rejected");
    if (reply === "always") this.approveCovered();
    return true;
  }

  /** Adds approvals given outside an answer (the terminal's "allow edits in this folder"); open asks they cover are answered. */
  approve(rules: readonly Rule[]): void {
    this.approvals.push(...rules);
    this.approveCovered();
  }

  pending(): Ask[] {
    return [...this.open.values()].map((e) => e.ask);
  }

  /** Rejects every open ask (the run is being aborted). */
  rejectAll(message: string): void {
    for (const id of [...this.open.keys()]) this.settle(id, { reply: "reject", message });
  }

  private approveCovered(): void {
    for (const { ask } of [...this.open.values()]) {
      if (!ask.reason && evaluate(ask.requests, this.io.rules(), this.approvals).action === "allow") {
        this.settle(ask.id, { reply: "once", message: "covered by an earlier \"always\"" });
      }
    }
  }

  private ask(ask: Ask): Promise<Answer> {
    return new Promise((resolve) => {
      this.open.set(ask.id, { ask, resolve });
      this.io.emitAsk(ask);
      const automatic = this.io.policy?.(ask);
      if (automatic && this.open.has(ask.id)) this.settle(ask.id, automatic);
    });
  }

  private settle(id: string, answer: Answer): void {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    if (answer.reply === "always") this.approvals.push(...alwaysRules(entry.ask.requests));
    this.io.emitReply(id, answer);
    entry.resolve(answer);
  }
}

/** The approvals an "always" adds for these requests: one per always pattern of each (the terminal saves the same). */
export function alwaysRules(requests: readonly PermissionRequest[]): Rule[] {
  return requests.flatMap((r) => r.always.map((pattern) => ({ permission: r.permission, pattern, action: "allow" as const, source: "approved in this session" })));
}
