// The permission broker of a session: its rules, its saved outputs and a parent's approvals as
// standing rules, the taint's gate, the PermissionRequest and Notification hooks before an ask, and
// the ask and reply events. Also the one expansion of a call's requests the broker and the
// checkpoint share.
import { join } from "node:path";
import type { PermissionRequest } from "../permission/evaluate.ts";
import { resolveForCheck } from "../permission/paths.ts";
import { PermissionBroker, type Ask } from "./broker.ts";
import { newId } from "./ids.ts";
import type { SessionCore } from "./session-core.ts";

export function sessionBroker(core: SessionCore): PermissionBroker {
  const { options, row } = core;
  const outputs = [join(options.outputDir, row.id), resolveForCheck(join(options.outputDir, row.id), "/", "/")].map((dir) => ({
    permission: "external_directory",
    pattern: `${dir}/*`,
    action: "allow" as const,
    source: "the session's saved outputs",
  }));
  return new PermissionBroker({
    rules: () => core.options.rules,
    ...(options.expand ? { expand: (requests: PermissionRequest[]) => expandedRequests(core, requests)! } : {}),
    newId: () => newId("ask"),
    gate: (requests) => core.taint?.gate(requests),
    granted: () => core.options.skills?.approvals() ?? [],
    policy: options.askPolicy,
    // The note on a cut output sends the model to read its saved file; in print mode nobody could grant that.
    // Both spellings: the engine resolves symlinks in the paths it checks (a linked /tmp or home).
    // A subagent's parent's approvals are read at each call: an "always" given meanwhile counts.
    get standing() {
      return [...outputs, ...(options.inherited?.() ?? [])];
    },
    beforeAsk: async (ask, input) => {
      const hooks = core.hooks?.points;
      if (!hooks) return undefined;
      const fixed = ask.requests.some((r) => r.fixed !== undefined);
      const heard = await hooks.permissionRequest({ tool: ask.tool, input, fixed }, core.controller?.signal ?? new AbortController().signal);
      if (heard) return heard.allow ? { reply: "once", message: "allowed by a PermissionRequest hook" } : { reply: "reject", explain: `${heard.message}. The call did not run.` };
      // Only a person waits to be asked: a policy (print mode) answers at once.
      if (!core.options.askPolicy) void hooks.notify("permission_prompt", `rein needs your permission to use ${ask.tool}`);
      return undefined;
    },
    emitAsk: (ask: Ask) =>
      core.emit({
        type: "permission_ask",
        id: ask.id,
        tool_use_id: ask.toolUseId,
        tool: ask.tool,
        requests: ask.requests,
        ...(ask.reason ? { reason: ask.reason } : {}),
        ...(ask.tainted ? { tainted: ask.tainted, taint_sources: core.taint?.active().map((s) => s.source) ?? [] } : {}),
      }),
    emitReply: (id, answer) => core.emit({ type: "permission_reply", id, reply: answer.reply, ...(answer.message ? { message: answer.message } : {}) }),
  });
}

/** The engine's expansion of a call's requests, made once for the broker and the checkpoint both (a shell parse each). */
export function expandedRequests(core: SessionCore, requests: PermissionRequest[]): Promise<PermissionRequest[]> | undefined {
  const expand = core.options.expand;
  if (!expand) return undefined;
  let expansion = core.expansions.get(requests);
  if (!expansion) core.expansions.set(requests, (expansion = expand(requests, core.row.cwd)));
  return expansion;
}
