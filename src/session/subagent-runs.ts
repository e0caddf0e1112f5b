// A task's run: its child Session, stored and linked to its parent and tool call, with the agent's
// prompt, tools, rules and model; a background worker's session, in this process or a tmux pane; the
// task's worktree. Loaded by subagents.ts with the first task or worker, not at start.
import type { ChildOutcome, ChildRequest, SubagentParent } from "../agents/host.ts";
import { agentLayer, offeredTools, tightening } from "../agents/rules.ts";
import type { AgentDefinition } from "../agents/types.ts";
import { skillText } from "../skills/skill-tool.ts";
import { emptyUsage, type TextBlock } from "../agent/types.ts";
import type { Rule } from "../permission/evaluate.ts";
import type { Tool } from "../sdk.ts";
import { BUILTIN_CATALOG } from "../llm/providers.ts";
import { sameFamily } from "../llm/aliases.ts";
import { teamTools } from "../agents/team-tools.ts";
import { Session, type SessionOptions, type TeamHolder } from "./session.ts";
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
import type { TmuxSettings } from "./tmux-worker.ts";
import type { SessionHookSettings } from "./session-hooks.ts";
import { mayStartTasks, nameProblem, teamHost, withSubagents, type SubagentSettings } from "./subagents.ts";

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
  const model = childModel(request.model ?? agent.model, parentOptions);
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

export async function runChild(
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
export async function startWorker(
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
  const model = childModel(request.model ?? agent.model, parentOptions);
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

/**
 * A subagent's model: `inherit` (or none written) is the parent's; an alias of the parent's family is
 * the parent's model too (`opus` under claude-opus-4-5), as in Claude Code; another alias is the newest
 * of its family of the parent's provider (`opus` under claude-sonnet-5-5 is claude-opus-5-5).
 */
function childModel(written: string | undefined, parentOptions: SessionOptions): string {
  if (!written || sameFamily(written, parentOptions.model)) return parentOptions.model;
  return parentOptions.models?.resolve?.(written, parentOptions.model) ?? written;
}

/** The worktree is the worker's workspace: reaching into it asks nothing more than the project would (denies still hold). */
function worktreeRules(wt: Worktree): Rule[] {
  return [wt.path, resolveForCheck(wt.path, "/", "/")].map((dir) => ({ permission: "external_directory", pattern: `${dir}/*`, action: "allow" as const, source: "the worker's worktree" }));
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

// A worker's worktree loads with the first task that asks for one.
const worktrees = () => require("./worktree.ts") as typeof import("./worktree.ts");
