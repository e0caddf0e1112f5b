// The loop's IO for one run of a session: its config (model, limits, window), and what the loop
// calls back into: the stream, the broker, the list a tool call runs through (call-handlers.ts), the
// tools of each turn, the sandbox, compaction, the run's stop checks, and the commit of each message
// to the store.
import { join } from "node:path";
import type { LoopRun } from "../agent/loop.ts";
import type { LoopConfig, Message } from "../agent/types.ts";
import { costFunction } from "../llm/providers.ts";
import { diskFiles, type Tool } from "../sdk.ts";
import { prepareBash } from "../registry/builtin.ts";
import { compactWith } from "./compact-with.ts";
import { callHandlers, runChain } from "./call-handlers.ts";
import type { SessionCore } from "./session-core.ts";
import { NO_SANDBOX } from "./session-options.ts";
import { sendable } from "./sendable.ts";
import { storedHistory } from "./stored-history.ts";

export function loopConfig(core: SessionCore, model: string): LoopConfig {
  const { options } = core;
  return {
    model,
    system: options.system,
    maxTokens: options.maxTokens,
    maxTurns: options.maxTurns,
    ...(options.maxCost !== undefined ? { maxCost: options.maxCost } : {}),
    spend: core.runSpend,
    cwd: core.row.cwd,
    sessionId: core.id,
    contextWindow: core.contextWindow,
    ...(core.storedSize ? { history: core.storedSize } : {}),
  };
}

export function loopIO(core: SessionCore, model: string, signal: AbortSignal): LoopRun {
  const { options, id } = core;
  return {
    stream: options.stream,
    authorize: (call) => core.broker.authorize(call),
    handlers: callHandlers(core),
    chain: runChain(core),
    emit: (event) => void core.emit(event),
    bound: options.bound(id),
    prepare: (tool) => {
      // A bash call that turns out read-only runs in the shared sandbox: it starts while the first call is
      // written (later calls find the next shell forked ahead by the last one).
      if (tool === "bash" && !core.bashPrepared) {
        core.bashPrepared = true;
        prepareBash(() => ({ masked: sandboxPolicy(core, true).masked, env: core.toolEnv }));
      }
      if (core.warmedUp) return;
      core.warmedUp = true;
      core.options.warmUp?.();
    },
    tools: () => turnTools(core),
    files: core.files,
    fileAccess: options.fileAccess ?? diskFiles,
    outputDir: join(options.outputDir, id),
    history: storedHistory(options.store, id),
    toolEnv: core.toolEnv,
    sandbox: (readOnly) => sandboxPolicy(core, readOnly),
    costOf: costFunction(model, options.models),
    compact: (input, signal) => compactWith(core, input, signal),
    ...(options.inbox ? { inbox: () => core.options.inbox!(id) } : {}),
    commit: (message: Message) => {
      const kept = sendable(message);
      const interrupted = signal.aborted && message.role === "assistant";
      if (kept) core.saving(() => options.store.appendMessage(id, kept, core.lastSeq, interrupted ? "interrupted" : "complete"));
      return kept;
    },
  };
}

/** The sandbox a call's commands run under, given whether only the read-only analysis allowed it. */
function sandboxPolicy(core: SessionCore, readOnly: boolean) {
  const { masked, ...sandbox } = core.options.sandbox ?? NO_SANDBOX;
  return { ...sandbox, readOnly, masked: masked(readOnly) };
}

/** The tools offered now: the session's, then the task tool when it has subagents, deferred ones as their loader. */
export async function offeredTools(core: SessionCore): Promise<Tool[]> {
  const own = await core.ownTools();
  const all = core.taskTools.length ? [...own, ...core.taskTools] : own;
  return core.deferral ? core.deferral.offer(all) : all;
}

/** The tools for a turn (their read-only flags kept for the checkpoints); MCP servers that failed are told. */
export async function turnTools(core: SessionCore): Promise<Tool[]> {
  const tools = await offeredTools(core);
  for (const failure of core.options.mcp?.failures() ?? []) core.emit({ type: "mcp_server", ...failure });
  // `task` is read-only only so calls of it run together: its children write in this workspace,
  // and the parent's turn covers what they change (its checkpoint, and so its undo).
  if (core.checkpoints) core.readOnlyTools = new Map(tools.map((tool) => [tool.name, tool.readOnly === true && tool.name !== "task"]));
  return tools;
}
