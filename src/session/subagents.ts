// Wires the task tool into a session: each task call runs a child Session, stored and linked to its
// parent and tool call, with the agent's prompt (after the parent's instructions), tools, rules and
// model, none of the parent's conversation. The child's events are shown on the parent's stream,
// its asks answered through the parent, its spending added to the parent's result.
import type { ChildOutcome, ChildRequest, HookAgentSource, SubagentParent } from "../agents/host.ts";
import { agentLayer, offeredTools, tightening } from "../agents/rules.ts";
import { DEFAULT_TASK_CAP, taskTool } from "../agents/task-tool.ts";
import type { AgentDefinition } from "../agents/types.ts";
import { skillText } from "../skills/skill-tool.ts";
import { emptyUsage, type TextBlock } from "../agent/types.ts";
import type { Rule } from "../permission/evaluate.ts";
import type { Tool } from "../sdk.ts";
import { BUILTIN_CATALOG } from "../llm/providers.ts";
import { teamTools } from "../agents/team-tools.ts";
import { Session, type SessionOptions, type TeamHolder } from "./session.ts";
import type { Store } from "./store.ts";
import { dirname } from "node:path";
import { resolveForCheck } from "../permission/paths.ts";
import type { Worktree } from "./worktree.ts";
import { agentFields, dontAskPolicy, withEffort } from "./agent-fields.ts";
import type { Worker } from "./team.ts";
import type { WorkerSession } from "./team-worker.ts";
import { taskListTools } from "../agents/task-list-tools.ts";
import { joinTeam, leadOf, taskListHost } from "./team-host.ts";
import { membership } from "./task-list.ts";
import { newId } from "./ids.ts";
import { take } from "./mailbox.ts";
import type { TmuxSettings } from "./tmux-worker.ts";
import type { SessionHookSettings } from "./session-hooks.ts";

/** how deep subagents nest: a session at this depth starts no more */
export const MAX_TASK_DEPTH = 3;

export type SubagentSettings = {
  agents: readonly AgentDefinition[];
  /** how many children of one session run at once (default 4) */
  cap?: number;
  /** how many background workers of the process run at once (default 4) */
  workers?: number;
  /** the depth of the session these options are for: 0 for a top-level one */
  depth?: number;
  /** the process's team, shared by a lead and its workers (made on first use) */
  team?: TeamHolder;
  /** `"teammateMode": "tmux"`: background workers run as rein processes in tmux panes */
  tmux?: TmuxSettings;
};

/** `options` with the task tool (refusing past MAX_TASK_DEPTH), the team's tools, and the subagent `agent` hooks run. */
export function withSubagents(options: SessionOptions, settings: SubagentSettings): SessionOptions {
  const depth = settings.depth ?? 0;
  const cap = settings.cap ?? DEFAULT_TASK_CAP;
  const team = settings.team ?? options.team ?? teamHolder(options.store, settings.workers);
  const shared = { ...settings, depth, team };
  return {
    ...options,
    team,
    // Only a process that started a worker has mail to look for at turn boundaries.
    inbox: (id) => team.current?.inbox(id) ?? memberInbox(options.store, id),
    hookAgent: hookAgents(options, shared),
    subagents: (parent) => {
      // What a person approved with "always" for a subagent holds for that agent's later tasks in this session.
      const approved = new Map<string, Rule[]>();
      const tooDeep = () => new Error(`subagents nest at most ${MAX_TASK_DEPTH} deep and this one is at depth ${depth}; do this part of the task yourself`);
      return [
        taskTool({
          agents: settings.agents,
          cap,
          run: (request) => (depth >= MAX_TASK_DEPTH ? Promise.reject(tooDeep()) : runChild(options, shared, parent, request, approved)),
          start: (request) => (depth >= MAX_TASK_DEPTH ? Promise.reject(tooDeep()) : startWorker(options, shared, parent, request, approved)),
        }),
        ...teamTools(teamHost(team, parent)),
        ...taskListTools(taskListHost(options.store, team, parent, (m) => (depth >= MAX_TASK_DEPTH ? Promise.reject(tooDeep()) : startMember(options, shared, parent, m, approved))), { lead: depth === 0 }),
      ];
    },
  };
}

function teamHost(team: TeamHolder, parent: SubagentParent) {
  return {
    send: (to: string, message: string) => team.get().send(parent.id, to, message),
    stop: (id: string) => team.get().stop(id, parent.id),
    output: (id: string) => team.get().output(id, parent.id),
  };
}

/** A member team_create starts: a background worker of the agent named (general by default). */
function startMember(parentOptions: SessionOptions, settings: SubagentSettings & { team: TeamHolder }, parent: SubagentParent, member: { name: string; prompt: string; agent: string; toolUseId: string; signal: AbortSignal }, approved: Map<string, Rule[]>): Promise<Worker> {
  const agent = settings.agents.find((a) => a.name === member.agent && a.mode !== "primary");
  if (!agent) return Promise.reject(new Error(`unknown subagent_type "${member.agent}" (known: ${settings.agents.filter((a) => a.mode !== "primary").map((a) => a.name).join(", ")})`));
  return startWorker(parentOptions, settings, parent, { agent: agent.name, prompt: member.prompt, description: `team member ${member.name}`, name: member.name, toolUseId: member.toolUseId, signal: member.signal, ...(agent.isolation ? { isolation: "worktree" as const } : {}) }, approved);
}

const children = new WeakMap<Store, Map<string, boolean>>();

/**
 * The mail of a worker whose process has no team of its own (a tmux pane's rein: its lead is another
 * process): a session with a parent reads its mailbox at its turn boundaries; a top-level one has none
 * until it starts a worker. Whether a session has a parent is asked once.
 */
export function memberInbox(store: Store, id: string): { type: "text"; text: string }[] {
  let known = children.get(store);
  if (!known) children.set(store, (known = new Map()));
  let child = known.get(id);
  if (child === undefined) known.set(id, (child = Boolean(store.getSession(id)?.parent_id)));
  return child ? take(store.db, id).map((mail) => ({ type: "text" as const, text: mail.body })) : [];
}

/** The child session of a task call: opened again for a task_id, or made and linked to its parent. */
function childSession(
  parentOptions: SessionOptions,
  settings: SubagentSettings,
  parent: SubagentParent,
  request: ChildRequest,
  approved: Map<string, Rule[]>,
  worktree?: Worktree,
  background = false,
): { child: Session; model: string; agentApprovals: Rule[]; agent: AgentDefinition; closeServers: () => Promise<void>; skills: TextBlock[] } {
  const agent = settings.agents.find((a) => a.name === request.agent)!;
  const written = request.model ?? agent.model ?? parentOptions.model;
  // `opus` is the newest opus of the parent's provider; `inherit` the parent's model.
  const model = parentOptions.models?.resolve?.(written, parentOptions.model) ?? written;
  const problem = parentOptions.models?.problem?.(model);
  if (problem) throw new Error(problem);
  if (!approved.has(agent.name)) approved.set(agent.name, []);
  const agentApprovals = approved.get(agent.name)!;
  // A background worker's "always" holds for the lead's other workers too, whatever their agent.
  if (!approved.has(TEAM_APPROVALS)) approved.set(TEAM_APPROVALS, []);
  const teamApprovals = approved.get(TEAM_APPROVALS)!;
  const { options: base, closeServers, skills } = childOptions(parentOptions, agent, parent, model, [agentApprovals, teamApprovals, worktree ? worktreeRules(worktree) : []]);
  // A worker of any agent reads its messages; the team is the lead's.
  if (settings.team) Object.assign(base, { team: settings.team, inbox: (id: string) => settings.team!.current?.inbox(id) ?? [] });
  const team = settings.team;
  // A background worker of an agent that starts no tasks still has its team's tools: messages and the task list.
  const memberTools = team && background ? { subagents: (self: SubagentParent) => [...teamTools(teamHost(team, self)), ...taskListTools(taskListHost(parentOptions.store, team, self), { lead: false })] } : {};
  const options = mayStartTasks(agent) ? withSubagents(base, { ...settings, depth: (settings.depth ?? 0) + 1 }) : { ...base, ...memberTools };
  const { store } = parentOptions;
  if (request.taskId) {
    const row = store.getSession(request.taskId);
    if (!row || row.parent_id !== parent.id) throw new Error(`task_id ${request.taskId} is not a task of this session; leave task_id out to start a new one`);
    return { child: Session.open(row, options), model, agentApprovals, agent, closeServers, skills: [] };
  }
  const child = Session.create(worktree?.cwd ?? parent.cwd, options);
  store.linkChild(child.id, { parentId: parent.id, toolUseId: request.toolUseId, agent: agent.name });
  return { child, model, agentApprovals, agent, closeServers, skills };
}

/** Shows the child's events on the parent's stream and answers its asks through the parent; returns the undoing. */
function wire(child: Session, parent: SubagentParent, toolUseId: string): () => void {
  const unsubscribe = child.subscribe((event) => parent.relay({ ...event, parent_tool_use_id: event.parent_tool_use_id ?? toolUseId }));
  const unanswer = parent.answerer((askId, reply, message) => child.reply(askId, reply, message));
  return () => (unanswer(), unsubscribe());
}

async function runChild(
  parentOptions: SessionOptions,
  settings: SubagentSettings,
  parent: SubagentParent,
  request: ChildRequest,
  approved: Map<string, Rule[]>,
): Promise<ChildOutcome> {
  const worktree = await worktreeFor(parentOptions, parent, request);
  const { child, model, agentApprovals, closeServers, skills } = childSession(parentOptions, settings, parent, request, approved, worktree);
  const unwire = wire(child, parent, request.toolUseId);
  const abort = () => child.abort();
  request.signal.addEventListener("abort", abort, { once: true });
  try {
    const result = request.signal.aborted ? undefined : await child.prompt(request.prompt, skills);
    if (!result) return { taskId: child.id, status: "interrupted", text: "", error: "the parent run was interrupted", usage: emptyUsage(), cost: 0, turns: 0, durationMs: 0, model };
    parent.spent(result.usage, result.cost_usd);
    // `continue: false` from a hook in the child stops the whole run, as docs/hooks.md says.
    if (result.status === "stopped") parent.halt(result.error ?? "a hook in a subagent stopped the run");
    else if (result.hook_stop) parent.halt(`a ${result.hook_stop.event} hook in a subagent stopped the run: ${result.hook_stop.reason}`, result.hook_stop);
    parent.tainted?.(child.taintSources());
    const kept = worktree ? await worktrees().finishWorktree(worktree, parent.hook) : undefined;
    return {
      taskId: child.id,
      status: result.status,
      text: kept ? `${result.text}\n<worktree>\n${kept}\n</worktree>` : result.text,
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
    unwire();
    // Its own MCP servers end with its run (Claude Code disconnects them when the subagent finishes).
    await closeServers();
  }
}

/** A background worker: its session is made now (its id is the task id), the team runs it and notifies the parent. */
async function startWorker(
  parentOptions: SessionOptions,
  settings: SubagentSettings & { team: TeamHolder },
  parent: SubagentParent,
  request: ChildRequest & { name?: string },
  approved: Map<string, Rule[]>,
): Promise<Worker> {
  const team = settings.team.get();
  if (request.name !== undefined) {
    const problem = nameProblem(request.name);
    if (problem) throw new Error(problem);
  }
  const worktree = await worktreeFor(parentOptions, parent, request);
  if (settings.tmux) return startInTmux(parentOptions, settings as SubagentSettings & { team: TeamHolder; tmux: TmuxSettings }, parent, request, worktree);
  const { child, agentApprovals, agent, closeServers, skills } = childSession(parentOptions, settings, parent, request, approved, worktree, true);
  const unwire = wire(child, parent, request.toolUseId);
  const teamApprovals = approved.get(TEAM_APPROVALS)!;
  // Kept as they are given: workers running meanwhile ask no more for what one was allowed "always".
  const unsync = child.subscribe((event) => {
    if (event.type !== "permission_reply" || event.reply !== "always") return;
    for (const list of [agentApprovals, teamApprovals]) list.push(...child.approvals().filter((rule) => !list.includes(rule)));
  });
  const release = () => {
    agentApprovals.push(...child.approvals().filter((rule) => !agentApprovals.includes(rule)));
    unsync();
    unwire();
  };
  // Its own MCP servers end with each of its runs; a message that resumes it starts them again.
  child.subscribe((event) => void (event.type === "result" && closeServers()));
  const finish = worktree ? { finish: () => worktrees().finishWorktree(worktree, parent.hook) } : {};
  const { store } = parentOptions;
  // A member going idle: its TeammateIdle hooks may keep it working (exit 2: their reason is its next prompt).
  const idle = async (signal: AbortSignal) => {
    const member = membership(store.db, child.id);
    if (!member) return undefined;
    const heard = await child.teamHook("TeammateIdle", { teammate_name: member.name, team_name: member.team.name }, signal);
    return heard?.block && !heard.stop ? `A TeammateIdle hook configured by the user keeps you working: ${heard.block}` : undefined;
  };
  const worker = team.start({ run: { session: skills.length ? withFirstBlocks(child, skills) : child, parent, release, idle, ...finish }, agent: agent.name, description: request.description, toolUseId: request.toolUseId, prompt: request.prompt, ...(request.name ? { name: request.name } : {}) });
  joinTeam(store, leadOf(store, parent.id), worker);
  return worker;
}

/** A worker in a tmux pane: its session is stored and linked here; its runs are rein processes (tmux-worker.ts). */
function startInTmux(parentOptions: SessionOptions, settings: SubagentSettings & { team: TeamHolder; tmux: TmuxSettings }, parent: SubagentParent, request: ChildRequest & { name?: string }, worktree: Worktree | undefined): Worker {
  const { store } = parentOptions;
  const agent = settings.agents.find((a) => a.name === request.agent)!;
  const written = request.model ?? agent.model ?? parentOptions.model;
  const model = parentOptions.models?.resolve?.(written, parentOptions.model) ?? written;
  const row = store.createSession({ id: newId("s"), cwd: worktree?.cwd ?? parent.cwd, model });
  store.linkChild(row.id, { parentId: parent.id, toolUseId: request.toolUseId, agent: agent.name });
  const lead = leadOf(store, parent.id);
  const session = (require("./tmux-worker.ts") as typeof import("./tmux-worker.ts")).tmuxWorker(settings.tmux, store, { id: row.id, cwd: row.cwd, agent: agent.name, model, name: request.name ?? row.id, leadId: lead });
  const finish = worktree ? { finish: () => worktrees().finishWorktree(worktree, parent.hook) } : {};
  const worker = settings.team.get().start({ run: { session, parent, release: () => undefined, ...finish }, agent: agent.name, description: request.description, toolUseId: request.toolUseId, prompt: request.prompt, ...(request.name ? { name: request.name } : {}) });
  joinTeam(store, lead, worker);
  return worker;
}

/** The worker's session, its first prompt carrying `blocks` after the text (its agent's preloaded skills). */
function withFirstBlocks(child: Session, blocks: TextBlock[]): WorkerSession {
  let first: readonly TextBlock[] = blocks;
  return {
    id: child.id,
    prompt: (text) => {
      const now = first;
      first = [];
      return child.prompt(text, now);
    },
    abort: () => child.abort(),
    subscribe: (listener) => child.subscribe(listener),
    taintSources: () => child.taintSources(),
  };
}

const TEAM_APPROVALS = "\u0000team";

/** The task's worktree, when it asks for one (a continued task keeps the folder it had). */
async function worktreeFor(options: SessionOptions, parent: SubagentParent, request: ChildRequest): Promise<Worktree | undefined> {
  if (request.isolation !== "worktree" || request.taskId) return undefined;
  const name = request.name ?? `task-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return worktrees().createWorktree(parent.cwd, dirname(options.outputDir), name, parent.hook);
}

/** The worktree is the worker's workspace: reaching into it asks nothing more than the project would (denies still hold). */
function worktreeRules(wt: Worktree): Rule[] {
  return [wt.path, resolveForCheck(wt.path, "/", "/")].map((dir) => ({ permission: "external_directory", pattern: `${dir}/*`, action: "allow" as const, source: "the worker's worktree" }));
}

/** A worker's name is what send_message's `to` matches: a short word, not a task id, not "lead". */
export function nameProblem(name: string): string | undefined {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/.test(name)) return `the worker name "${name}" is not usable: use 1-40 letters, digits, "_", "-" or "." (starting with a letter or digit)`;
  if (name === "lead" || /^s_/.test(name)) return `the worker name "${name}" is taken ("lead" and names starting s_ mean the lead and task ids); choose another`;
  return undefined;
}

/** The process's team, made the first time something asks for it. */
export function teamHolder(store: Store, cap?: number): TeamHolder {
  const holder: TeamHolder = {
    current: undefined,
    get: () => (holder.current ??= newTeam(store, cap)),
  };
  return holder;
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

/**
 * An agent's `skills` (Claude Code's): each skill's text as the skill tool would load it, sent after
 * the task's prompt in the child's first message, as Claude Code preloads them. A plugin's agent
 * names its own plugin's skills without the prefix.
 */
function preloaded(agent: AgentDefinition, options: SessionOptions): string[] {
  const skills = options.skills?.loaded.skills.skills ?? [];
  const prefix = agent.name.includes(":") ? agent.name.slice(0, agent.name.lastIndexOf(":") + 1) : "";
  return (agent.skills ?? []).flatMap((name) => {
    const skill = skills.find((s) => s.name === name) ?? skills.find((s) => s.name === `${prefix}${name}`);
    return skill ? [skillText(skill, "")] : [];
  });
}

/** The child's options, and the closing of its own MCP servers (when its run is over). */
function childOptions(parentOptions: SessionOptions, agent: AgentDefinition, parent: SubagentParent, model: string, approvals: readonly (readonly Rule[])[]): { options: SessionOptions; closeServers: () => Promise<void>; skills: TextBlock[] } {
  // A child is named by its task call, not by a title call of its own.
  const { subagents: _, titleCall: _title, ...base } = parentOptions;
  const shared = parentOptions.childSystem ?? parentOptions.system;
  // omitClaudeMd (Claude Code's): this subagent's prompt leaves the instruction files out (its own subagents' need not).
  const prompt = agent.omitClaudeMd && parentOptions.childSystemBare ? parentOptions.childSystemBare() : shared;
  const tighten = tightening(agent);
  const own = agentLayer(agent);
  const parentTools = parentOptions.tools;
  // memory, hooks and named MCP servers of the agent file (Claude Code's fields)
  const fields = agentFields(agent, parentOptions, parent.cwd);
  const { tools: _list, ...unlisted } = agent;
  const closeServers = async () => void (await fields.ownServers?.close().catch(() => undefined));
  const options: SessionOptions = {
    ...base,
    model,
    // its own effort (Claude Code's `effort`), not the parent agent's
    stream: withEffort(parentOptions.stream, agent.effort),
    system: [prompt, agent.prompt, ...fields.system].filter(Boolean).join("\n\n"),
    childSystem: shared,
    tools: async () => {
      const tools = await (typeof parentTools === "function" ? parentTools() : parentTools);
      const pastList = (more: readonly Tool[]) => offeredTools(offeredTools(more, unlisted, parentOptions.rules), undefined, own);
      // Its own servers' tools are its: a parent's tool of the same name gives way.
      const mine = fields.ownServers ? pastList(await fields.ownServers.tools()) : [];
      const taken = new Set(mine.map((tool) => tool.name));
      const listed = offeredTools(offeredTools(tools, fields.agent, parentOptions.rules), undefined, own).filter((tool) => !taken.has(tool.name));
      const named = pastList(await fields.serverTools(tools)).filter((tool) => !listed.includes(tool) && !taken.has(tool.name));
      return [...listed, ...named, ...mine];
    },
    expand: async (requests, cwd) => tighten(parentOptions.expand ? await parentOptions.expand(requests, cwd) : requests),
    maxTurns: agent.maxTurns ?? parentOptions.maxTurns,
    // permissionMode dontAsk (Claude Code's): its asks are refused, not sent up to a person
    ...(agent.dontAsk ? { askPolicy: dontAskPolicy(agent.name) } : {}),
    // autoCompactWindow (Claude Code's): it only ever lowers the window the child would have.
    ...(agent.autoCompactWindow ? { contextWindow: Math.min(agent.autoCompactWindow, parentOptions.contextWindow ?? (parentOptions.models ?? BUILTIN_CATALOG).info(model).contextWindow) } : {}),
    // The parent's cap over the parent's run's spending: children running at once see each other's.
    spend: parent.spend(),
    agent: agent.name,
    // A child reads what its parent's conversation holds: it starts tainted as the parent is.
    ...(parentOptions.taint ? { taint: { ...parentOptions.taint, initial: [...parentOptions.taint.initial, ...(parent.taintSources?.() ?? [])] } } : {}),
    ...(parentOptions.hooks || fields.hookEntries.length
      ? { hooks: { ...withoutEffort(parentOptions.hooks ?? { entries: [], projectDir: parent.cwd, permissionMode: "default" }), entries: fields.hookEntries, subagent: { parentId: parent.id, agentType: agent.name }, ...(typeof agent.effort === "string" ? { effort: agent.effort } : {}) } }
      : {}),
    inherited: () => [...(parentOptions.inherited?.() ?? []), ...parent.approvals(), ...approvals.flat(), ...fields.rules],
  };
  // Claude Code's `skills`: each skill's text after the task's prompt in its first message, not in its system prompt.
  const skills = preloaded(agent, parentOptions).map((text) => ({ type: "text" as const, text }));
  return { options, closeServers, skills };
}



/** A child's hooks speak of its own agent's effort, not its parent's. */
function withoutEffort(hooks: SessionHookSettings): SessionHookSettings {
  const { effort: _, ...rest } = hooks;
  return rest;
}

// The team of background workers, their worktrees and tmux panes load with the first worker that
// needs them: a session that starts none loads none of it.
const worktrees = () => require("./worktree.ts") as typeof import("./worktree.ts");

function newTeam(store: Store, cap: number | undefined): import("./team.ts").Team {
  const { Team, DEFAULT_WORKER_CAP } = require("./team.ts") as typeof import("./team.ts");
  return new Team(store, cap ?? DEFAULT_WORKER_CAP);
}
