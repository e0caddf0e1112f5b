// A permission ask as `session/request_permission`: the call, an edit's or write's change (the whole
// file before and after, and the line), why it asks (the lines the terminal's dialog shows), and
// allow once / allow always / reject once, mapped onto rein's replies. A request the client cancels,
// or one that fails, rejects.
import type * as acp from "@agentclientprotocol/sdk";
import { homedir } from "node:os";
import { sep } from "node:path";
import { alwaysRules } from "../session/broker.ts";
import type { StampedEvent } from "../app/events.ts";
import { formatRule } from "../app/rules.ts";
import type { Session } from "../session/session.ts";
import type { FileChange } from "./file-change.ts";
import type { Peer } from "./rpc.ts";
import { pendingCall } from "./updates.ts";
import { ANSWERS, answerOf } from "./wire.ts";

type AskEvent = Extract<StampedEvent, { type: "permission_ask" }>;

const REPLIES = { allow_once: "once", allow_always: "always", reject_once: "reject" } as const;

/**
 * The buttons: short labels an editor can show on one line. "Always allow" names its one rule with
 * the path as the person sees it (relative to the workspace, ~ for the home folder); several rules
 * are counted, and listed in the explanation beside the buttons.
 */
export function permissionOptions(ask: AskEvent, cwd: string, home = homedir()): acp.PermissionOption[] {
  const always = alwaysRules(ask.requests);
  const what = always.length === 1 ? shortRule(always[0]!, cwd, home) : `these ${always.length} rules`;
  return [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
    ...(always.length > 0 ? [{ optionId: "allow_always", name: `Always allow ${what} in this session`, kind: "allow_always" as const }] : []),
    { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  ];
}

/** Why the call asks, one line a request, as the terminal's dialog words it; then the rules "always" adds when there are several. */
export function explanation(ask: AskEvent, cwd: string, home = homedir()): string {
  const lines = ask.requests.map((r) => {
    const extra = r as { reason?: string; fixed?: { reason: string } };
    const why = extra.fixed?.reason ?? extra.reason ?? (r.opaque ? "cannot be checked statically" : "no rule allows it");
    return `${formatRule(r)} asks: ${why}`;
  });
  if (ask.reason) lines.push(ask.reason);
  const always = alwaysRules(ask.requests);
  if (always.length > 1) lines.push(`Always allow adds: ${always.map((rule) => shortRule(rule, cwd, home)).join(", ")}`);
  return lines.join("\n");
}

/** A rule with the workspace's paths relative and the home folder as ~. */
function shortRule(rule: { permission: string; pattern: string }, cwd: string, home: string): string {
  const inside = cwd.endsWith(sep) ? cwd : cwd + sep;
  let pattern = rule.pattern;
  if (pattern.startsWith(inside)) pattern = pattern.slice(inside.length) || ".";
  else if (home && pattern.startsWith(home + sep)) pattern = `~${pattern.slice(home.length)}`;
  return formatRule({ permission: rule.permission, pattern });
}

export async function askPermission(client: Peer, session: Session, ask: AskEvent, input: unknown, cwd: string, change?: FileChange): Promise<void> {
  let reply: "once" | "always" | "reject" = "reject";
  try {
    const why: acp.ToolCallContent = { type: "content", content: { type: "text", text: explanation(ask, cwd) } };
    const request: acp.RequestPermissionRequest = {
      sessionId: session.id,
      toolCall: { ...pendingCall(ask.tool_use_id, ask.tool, input, cwd, change), content: change ? [change.diff, why] : [why] },
      options: permissionOptions(ask, cwd),
    };
    const response = answerOf(ANSWERS.requestPermission, await client.request("session/request_permission", request));
    if (response.outcome.outcome === "selected") reply = REPLIES[response.outcome.optionId as keyof typeof REPLIES] ?? "reject";
  } catch {
    // the client failed the request or went away: nobody allowed the call
  }
  session.reply(ask.id, reply);
}
