// The subagent parent: what a session gives the task tool and an agent hook to run children under
// it (its approvals, a relay of their events, a reply path for their asks, their spending and taint
// rolled up into its run), and the run's roll-up of what they spent.
import { addUsage, emptyUsage, type Usage } from "../agent/types.ts";
import type { HookAgentRun, SubagentParent } from "../agents/host.ts";
import type { Tool } from "../sdk.ts";
import type { SessionCore } from "./session-core.ts";
import { joinCommand } from "./worker-rows.ts";

export type ChildSpend = { usage: Usage; cost: number | null };

export function noChildSpend(): ChildSpend {
  return { usage: emptyUsage(), cost: 0 };
}

/** The session's task tools and agent-hook runner, made with the session as their parent; bash's background commands join the team. */
export function attachSubagents(core: SessionCore): { taskTools: Tool[]; hookAgent: HookAgentRun | undefined } {
  const parent: SubagentParent = {
    id: core.row.id,
    cwd: core.row.cwd,
    approvals: () => core.broker.approvals,
    relay: (event) => core.notify(event),
    answerer: (answer) => (core.answerers.add(answer), () => void core.answerers.delete(answer)),
    spent: (usage, cost) => {
      const before = core.childSpend;
      core.childSpend = { usage: addUsage(before.usage, usage), cost: before.cost === null || cost === null ? null : before.cost + cost };
    },
    spend: () => core.runSpend,
    halt: (reason, claude) => void (core.childStop ??= { reason, ...(claude ? { claude } : {}) }),
    notice: (event) => void core.emit(event),
    wake: () => core.wakeUp(),
    hook: (event, fields, signal) => core.hooks?.points.team(event, fields, signal) ?? Promise.resolve(undefined),
    taintSources: () => core.taint?.active() ?? [],
    tainted: (sources) => {
      for (const s of sources) if (core.taint?.add({ ...s, source: s.source })) core.emit({ type: "taint", kind: s.kind, source: s.source, turn: core.assistantTurns });
    },
  };
  const taskTools = core.options.subagents?.(parent) ?? [];
  // bash `background: true` joins the team's list: task_output and task_stop reach it, its end notifies.
  const team = core.options.team;
  if (team) core.listeners.add((event) => void (event.type === "tool_end" && !event.parent_tool_use_id && event.metadata?.background && joinCommand(team.get(), parent, event)));
  return { taskTools, hookAgent: core.options.hookAgent?.(parent) };
}

/** A run's usage and cost with its children's added (a cost unknown on either side is unknown). */
export function withChildSpend(core: SessionCore, usage: Usage, cost: number | null): { usage: Usage; cost: number | null } {
  const child = core.childSpend;
  return { usage: addUsage(usage, child.usage), cost: cost === null || child.cost === null ? null : Math.round((cost + child.cost) * 1e6) / 1e6 };
}
