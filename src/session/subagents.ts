// Wires the task tool into a session: each task call runs a child Session, stored and linked to its
// parent and tool call, with the agent's prompt (after the parent's instructions), tools, rules and
// model, none of the parent's conversation. The child's events are shown on the parent's stream,
// its asks answered through the parent, its spending added to the parent's result.
import type { ChildOutcome, ChildRequest, HookAgentSource, SubagentParent } from "../agents/host.ts";
import { agentLayer, offeredTools, tightening } from "../agents/rules.ts";
import { DEFAULT_TASK_CAP, taskTool } from "../agents/task-tool.ts";
import type { AgentDefinition } from "../agents/types.ts";
import { emptyUsage } from "../agent/types.ts";
import type { Rule } from "../permission/evaluate.ts";
import { Session, type SessionOptions } from "./session.ts";

/** how deep subagents nest: a session at this depth starts no more */
export const MAX_TASK_DEPTH = 3;

export type SubagentSettings = {
  agents: readonly AgentDefinition[];
  /** how many children of one session run at once (default 4) */
  cap?: number;
  /** the depth of the session these options are for: 0 for a top-level one */
  depth?: number;
};

/** `options` with the task tool (refusing past MAX_TASK_DEPTH), and the subagent `agent` hooks run. */
export function withSubagents(options: SessionOptions, settings: SubagentSettings): SessionOptions {
  const depth = settings.depth ?? 0;
  const cap = settings.cap ?? DEFAULT_TASK_CAP;
  return {
    ...options,
    hookAgent: hookAgents(options, settings),
    subagents: (parent) => {
      // What a person approved with "always" for a subagent holds for that agent's later tasks in this session.
      const approved = new Map<string, Rule[]>();
      return [
        taskTool({
          agents: settings.agents,
          cap,
          run: (request) =>
            depth >= MAX_TASK_DEPTH
              ? Promise.reject(new Error(`subagents nest at most ${MAX_TASK_DEPTH} deep and this one is at depth ${depth}; do this part of the task yourself`))
              : runChild(options, { ...settings, depth }, parent, request, approved),
        }),
      ];
    },
  };
}

async function runChild(
  parentOptions: SessionOptions,
  settings: SubagentSettings,
  parent: SubagentParent,
  request: ChildRequest,
  approved: Map<string, Rule[]>,
): Promise<ChildOutcome> {
  const agent = settings.agents.find((a) => a.name === request.agent)!;
  const written = request.model ?? agent.model ?? parentOptions.model;
  // `opus` is the newest opus of the parent's provider; `inherit` the parent's model.
  const model = parentOptions.models?.resolve?.(written, parentOptions.model) ?? written;
  const problem = parentOptions.models?.problem?.(model);
  if (problem) throw new Error(problem);
  if (!approved.has(agent.name)) approved.set(agent.name, []);
  const agentApprovals = approved.get(agent.name)!;
  const base = childOptions(parentOptions, agent, parent, model, agentApprovals);
  const options = mayStartTasks(agent) ? withSubagents(base, { ...settings, depth: (settings.depth ?? 0) + 1 }) : base;
  const { store } = parentOptions;
  let child: Session;
  if (request.taskId) {
    const row = store.getSession(request.taskId);
    if (!row || row.parent_id !== parent.id) throw new Error(`task_id ${request.taskId} is not a task of this session; leave task_id out to start a new one`);
    child = Session.open(row, options);
  } else {
    child = Session.create(parent.cwd, options);
    store.linkChild(child.id, { parentId: parent.id, toolUseId: request.toolUseId, agent: agent.name });
  }
  const unsubscribe = child.subscribe((event) => parent.relay({ ...event, parent_tool_use_id: event.parent_tool_use_id ?? request.toolUseId }));
  const unanswer = parent.answerer((askId, reply, message) => child.reply(askId, reply, message));
  const abort = () => child.abort();
  request.signal.addEventListener("abort", abort, { once: true });
  try {
    const result = request.signal.aborted ? undefined : await child.prompt(request.prompt);
    if (!result) return { taskId: child.id, status: "interrupted", text: "", error: "the parent run was interrupted", usage: emptyUsage(), cost: 0, turns: 0, durationMs: 0, model };
    parent.spent(result.usage, result.cost_usd);
    return {
      taskId: child.id,
      status: result.status,
      text: result.text,
      ...(result.error ? { error: result.error } : {}),
      usage: result.usage,
      cost: result.cost_usd,
      turns: result.turns,
      durationMs: result.duration_ms,
      model,
    };
  } finally {
    agentApprovals.push(...child.approvals().filter((rule) => !agentApprovals.includes(rule)));
    request.signal.removeEventListener("abort", abort);
    unanswer();
    unsubscribe();
  }
}

/** The explore agent, run without hooks (an agent hook on a tool call would fire again on its own calls). */
function hookAgents(options: SessionOptions, settings: SubagentSettings): HookAgentSource {
  const { hooks: _, ...unhooked } = options;
  return (parent) => {
    const approved = new Map<string, Rule[]>();
    return async (request) => {
      if (!settings.agents.some((a) => a.name === HOOK_AGENT)) throw new Error(`agent hooks run the ${HOOK_AGENT} agent, which this workspace does not have`);
      const child = { agent: HOOK_AGENT, prompt: request.prompt, description: "agent hook", toolUseId: request.id, signal: request.signal, ...(request.model ? { model: request.model } : {}) };
      return runChild(unhooked, settings, parent, child, approved);
    };
  };
}

const HOOK_AGENT = "explore";

/** An agent with a tool list lacking the task tool, or one that disallows it, starts no subagents. */
export function mayStartTasks(agent: AgentDefinition): boolean {
  return (!agent.tools || agent.tools.includes("task")) && !agent.disallowedTools?.includes("task");
}

function childOptions(parentOptions: SessionOptions, agent: AgentDefinition, parent: SubagentParent, model: string, approvals: readonly Rule[]): SessionOptions {
  const { subagents: _, ...base } = parentOptions;
  const tighten = tightening(agent);
  const own = agentLayer(agent);
  const parentTools = parentOptions.tools;
  return {
    ...base,
    model,
    system: agent.prompt ? `${parentOptions.system}\n\n${agent.prompt}` : parentOptions.system,
    tools: async () => {
      const tools = await (typeof parentTools === "function" ? parentTools() : parentTools);
      return offeredTools(offeredTools(tools, agent, parentOptions.rules), undefined, own);
    },
    expand: async (requests, cwd) => tighten(parentOptions.expand ? await parentOptions.expand(requests, cwd) : requests),
    maxTurns: agent.maxTurns ?? parentOptions.maxTurns,
    // The parent's cap over the parent's run's spending: children running at once see each other's.
    spend: parent.spend(),
    agent: agent.name,
    ...(parentOptions.hooks ? { hooks: { ...parentOptions.hooks, subagent: { parentId: parent.id, agentType: agent.name } } } : {}),
    inherited: () => [...(parentOptions.inherited?.() ?? []), ...parent.approvals(), ...approvals],
  };
}


