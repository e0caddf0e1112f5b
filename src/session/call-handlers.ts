// A session's list for a tool call (call-engine.ts), outermost first: validate the call; rein's own
// after-call entries (language servers, folder instructions); the hooks' (late context,
// PostToolUseFailure, PostToolUse, PreToolUse); what the call touches; the tool's own check; the
// permission broker; the turn's checkpoint before a call that may change the workspace; the run.
import type { CallHandler } from "../agent/call-engine.ts";
import { check, permission, requests, run, validate } from "../agent/call-steps.ts";
import type { RunChain } from "../agent/types.ts";
import { expandedRequests } from "./session-broker.ts";
import type { SessionCore } from "./session-core.ts";

export function callHandlers(core: SessionCore): CallHandler[] {
  return [
    validate,
    ...(core.options.callHandlers ?? []),
    ...(core.hooks?.points.callHandlers ?? []),
    requests,
    check,
    permission,
    ...(core.checkpoints ? [checkpoint(core)] : []),
    run,
  ];
}

/** An allowed call that may change the workspace first gets the turn's checkpoint. */
function checkpoint(core: SessionCore): CallHandler {
  return async (c, next) => {
    const auth = c.auth;
    const readOnly = auth?.allow === true && (auth.readOnly === true || core.readOnlyTools.get(c.tool!.name) === true);
    if (auth?.allow && !readOnly) {
      const asked = c.requests!;
      const requests = (await expandedRequests(core, asked)?.catch(() => asked)) ?? asked;
      await core.checkpoints!.before({ readOnly, requests, tool: c.tool!.name });
    }
    await next();
  };
}

/** What the loop asks about the run: the hooks' stop and halt, the final answer's check, and a stop a child's hook asked for. */
export function runChain(core: SessionCore): RunChain {
  const hooks = core.hooks?.points.chain;
  const beforeStop = core.options.beforeStop;
  return {
    stopChecks: [...(hooks?.stopChecks ?? []), ...(beforeStop ? [beforeStop] : [])],
    halted: () => core.childStop?.reason ?? hooks?.halted?.(),
    haltSucceeds: () => (core.childStop ? core.childStop.claude !== undefined : hooks?.haltSucceeds?.() === true),
  };
}
