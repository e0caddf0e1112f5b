// The task tool: hands a self-contained prompt to a subagent running in a child session and returns
// the child's final answer, its task_id (to continue it) and one line of what it spent. Calls in one
// turn run together, at most `cap` at a time; the call itself asks no permission.
import * as v from "valibot";
import type { Tool, ToolResult } from "../sdk.ts";
import type { ChildOutcome, ChildRequest } from "./host.ts";
import type { AgentDefinition } from "./types.ts";

export const DEFAULT_TASK_CAP = 4;

const TaskInput = v.object({
  description: v.pipe(v.string(), v.description("3-5 words")),
  prompt: v.pipe(v.string(), v.minLength(1)),
  subagent_type: v.string(),
  model: v.optional(v.string()),
  task_id: v.optional(v.string()),
  run_in_background: v.optional(v.boolean()),
  isolation: v.optional(v.pipe(v.picklist(["worktree"]), v.description("its own git worktree (kept if changed)"))),
  name: v.optional(v.pipe(v.string(), v.description("to send_message it (background only)"))),
});

export type TaskToolOptions = {
  /** the agents a task may run (subagent or all, not hidden ones too: they can be named) */
  agents: readonly AgentDefinition[];
  run: (request: ChildRequest) => Promise<ChildOutcome>;
  /** starts the child as a background worker; its task id comes back at once (absent: no background tasks) */
  start?: (request: ChildRequest & { name?: string }) => Promise<{ id: string; name?: string; state: string }>;
  cap?: number;
};

export function taskTool(options: TaskToolOptions): Tool {
  const runnable = options.agents.filter((a) => a.mode !== "primary");
  const slots = semaphore(options.cap ?? DEFAULT_TASK_CAP);
  return {
    name: "task",
    description: describe(runnable),
    input: TaskInput,
    // Lets the loop run several task calls of one turn together (the children ask their own permissions).
    readOnly: true,
    permissions: (input) => {
      const agent = (input as v.InferOutput<typeof TaskInput>).subagent_type;
      return [{ permission: "task", pattern: agent, always: [agent] }];
    },
    async run(raw, ctx): Promise<ToolResult> {
      const input = raw as v.InferOutput<typeof TaskInput>;
      const agent = runnable.find((a) => a.name === input.subagent_type);
      if (!agent) {
        const known = runnable.map((a) => a.name).join(", ");
        return { output: `Unknown subagent_type "${input.subagent_type}". Known agents: ${known}. Call task again with one of them.`, isError: true };
      }
      // An agent file's `background: true` always starts its tasks in the background, as in Claude Code.
      if ((input.run_in_background === true || agent.background === true) && options.start) {
        try {
          const worker = await options.start({
            agent: agent.name,
            prompt: input.prompt,
            description: input.description,
            ...(input.model ? { model: input.model } : {}),
            ...(input.task_id ? { taskId: input.task_id } : {}),
            ...(input.name ? { name: input.name } : {}),
            ...(input.isolation ?? agent.isolation ? { isolation: "worktree" as const } : {}),
            toolUseId: ctx.toolUseId,
            signal: ctx.signal,
          });
          const named = worker.name ? ` as "${worker.name}"` : "";
          return {
            output: `task_id: ${worker.id}\nStarted the ${agent.name} subagent in the background${named} (${worker.state}). Go on with other work: a <task-notification> with its result comes when it ends. send_message, task_output and task_stop take this task_id${worker.name ? " or its name" : ""}.`,
            metadata: { task_id: worker.id, status: "async_launched", ...(worker.name ? { name: worker.name } : {}) },
          };
        } catch (error) {
          return { output: `The ${agent.name} subagent could not start: ${error instanceof Error ? error.message : String(error)}`, isError: true };
        }
      }
      const release = await slots(ctx.signal);
      if (!release) return { output: "Interrupted before the subagent started.", isError: true };
      try {
        const outcome = await options.run({
          agent: agent.name,
          prompt: input.prompt,
          description: input.description,
          ...(input.model ? { model: input.model } : {}),
          ...(input.task_id ? { taskId: input.task_id } : {}),
          ...(input.isolation ?? agent.isolation ? { isolation: "worktree" as const } : {}),
          toolUseId: ctx.toolUseId,
          signal: ctx.signal,
        });
        return taskResult(agent.name, outcome);
      } catch (error) {
        return { output: `The ${agent.name} subagent could not run: ${error instanceof Error ? error.message : String(error)}`, isError: true };
      } finally {
        release();
      }
    },
  };
}

function describe(agents: readonly AgentDefinition[]): string {
  // a loop, not filter and map: their calls over a start's agents add up past JavaScriptCore's optimizing threshold
  const listed: string[] = [];
  for (const a of agents) if (!a.hidden) listed.push(`- ${a.name}: ${a.description}`);
  return [
    "Run a subagent in a fresh context: it sees only your prompt (what to do, what you know, what to report) and only its final answer returns. Calls in one reply run together. Agents (subagent_type):",
    ...listed,
    "A task_id continues one. run_in_background: true returns its task_id at once; the result comes later as a <task-notification>.",
  ].join("\n");
}

function taskResult(agent: string, outcome: ChildOutcome): ToolResult {
  const line = usageLine(agent, outcome);
  const id = `task_id: ${outcome.taskId}`;
  if (outcome.status === "success") return { output: `${id}\n<task_result>\n${outcome.text}\n</task_result>\n${line}`, metadata: { task_id: outcome.taskId, status: outcome.status } };
  const why = outcome.error ?? outcome.status;
  const partial = outcome.text ? `\nIts last text:\n<task_result>\n${outcome.text}\n</task_result>` : "";
  return {
    output: `The ${agent} subagent did not finish (${outcome.status}): ${why}.${partial}\n${id} (continue it with task_id, or go on without it)\n${line}`,
    isError: true,
    metadata: { task_id: outcome.taskId, status: outcome.status },
  };
}

function usageLine(agent: string, o: ChildOutcome): string {
  const tokens = o.usage.input_tokens + o.usage.cache_read_input_tokens + o.usage.cache_creation_input_tokens;
  const cost = o.cost === null ? "cost unknown" : `$${o.cost.toFixed(4)}`;
  return `(${agent} on ${o.model}: ${o.turns} turn${o.turns === 1 ? "" : "s"}, ${tokens} tokens in, ${o.usage.output_tokens} out, ${cost}, ${(o.durationMs / 1000).toFixed(1)} s)`;
}

/** At most `n` holders at once; waiting ends undefined when the signal aborts. */
function semaphore(n: number): (signal: AbortSignal) => Promise<(() => void) | undefined> {
  let free = n;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return (signal) => {
    if (signal.aborted) return Promise.resolve(undefined);
    if (free > 0) {
      free--;
      return Promise.resolve(once(release));
    }
    return new Promise((resolve) => {
      const start = () => {
        signal.removeEventListener("abort", stop);
        resolve(once(release));
      };
      const stop = () => {
        const i = waiting.indexOf(start);
        if (i >= 0) waiting.splice(i, 1);
        resolve(undefined);
      };
      waiting.push(start);
      signal.addEventListener("abort", stop, { once: true });
    });
  };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done) (done = true), fn();
  };
}
