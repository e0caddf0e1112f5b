// What the terminal loads behind its first prompt: the configuration, the store, the tools, the
// session, custom commands, and the server when asked for. Warnings print above the prompt.
import chalk from "chalk";
import { promptTokens } from "../../app/model-window.ts";
import { budgetWarning, DEFAULT_AGENT, instructionSources, permissionsInMode, type RunSettings, instructionWarnings, sessionOptions, toolRegistry } from "../../app/factory.ts";
import type { StampedEvent } from "../../app/events.ts";
import { Session, type SessionOptions } from "../../session/session.ts";
import type { SpendEvent } from "../../session/store.ts";
import type { Args } from "../../app/args.ts";
import { startupWarnings, openStore, resolveContext, runSettings, untrustedToolsWarning, type Env } from "../../app/context.ts";
import { costLine, sessionSpend } from "../cost-line.ts";
import { skillProblems } from "../../session/skills.ts";
import type { InteractiveHooks, ServedSession } from "../interactive.ts";
import { markdownRenderer } from "../markdown.ts";
import { err } from "../../app/output.ts";
import { openSession, resumeSession } from "../open-session.ts";
import { sessionEndMemoryLine } from "../session-end-memory.ts";
import { formatLoadError } from "../../app/load-errors.ts";
import type { App, Loaded } from "./app.ts";
import type { Screen } from "./screen.ts";
import { visible } from "./editor.ts";
import { BUILTINS } from "./slash.ts";
import { idleDelay } from "./idle-notice.ts";
import { modeCycle } from "./mode-cycle.ts";

const RESUME_LINES = 12;

export async function loadSession(args: Args, env: Env, hooks: InteractiveHooks, screen: Screen, app: App): Promise<Loaded & { cleanup: (code: number) => Promise<void> }> {
  const ctx = resolveContext(args, env);
  const warn = (message: string) => screen.notice(`rein: ${message}`, chalk.yellow);
  const base = runSettings(ctx, { warn });
  // The terminal's own commands come first: a command or skill of the same name is reported, never run.
  const settings = { ...base, ...(base.skills ? { skills: { ...base.skills, builtins: BUILTINS.map((b) => b.name) } } : {}) };
  startupWarnings(ctx, warn);
  const unpriced = budgetWarning(settings);
  if (unpriced) warn(unpriced);
  for (const cut of instructionWarnings(instructionSources(settings))) warn(cut);
  const store = openStore(ctx, warn);
  const untrusted = untrustedToolsWarning(ctx);
  if (untrusted) warn(untrusted);
  const registry = toolRegistry(settings.toolDirs, (errors) => warn(`tools not loaded:\n${errors.map(formatLoadError).join("\n")}`));
  // A run that waits for another process's run on this session says so; Esc or Ctrl-C stops the wait as it stops a turn.
  const onLeaseWait = (line: string) => screen.notice(`${line} (Esc or Ctrl-C stops waiting)`, chalk.dim);
  let options: SessionOptions = { ...sessionOptions(settings, store, registry), onLeaseWait, wakeWhenIdle: true, titleCall: true };
  let agentName = settings.agents?.name;
  let mode = settings.permissionMode;
  const commands = options.skills?.loaded.commands ?? [];
  for (const problem of options.skills ? skillProblems(options.skills.loaded) : []) warn(problem);

  let session = openSession(ctx, store, options, warn);
  // Sessions started here that no prompt reached are dropped when left: no empty "(untitled)" ones.
  const fresh = new Set(args.resume || args.continue ? [] : [session.id]);
  const dropIfEmpty = (id: string) => fresh.delete(id) && store.lastSeq(id) === 0 && store.deleteSession(id);
  // What the status line needs, kept as events arrive rather than read back from the store.
  let spent: (StampedEvent | SpendEvent)[] = [];
  let lastContext: number | undefined;
  let ranTurn = false;
  const track = (event: StampedEvent) => {
    // A subagent's events are its own; its spending arrives rolled up in the parent's result.
    if (event.parent_tool_use_id) return;
    if (event.type === "result") ranTurn = true;
    if (event.type === "result" || event.type === "compaction" || event.type === "assistant" || event.type === "user") spent.push(event);
    if (event.type === "assistant") {
      const u = event.usage;
      lastContext = promptTokens(u) + u.output_tokens;
    }
  };
  let unsubscribe = () => {};
  const subscribe = (next: Session) => {
    unsubscribe();
    session = next;
    const off = [session.subscribe(app.onEvent), session.subscribe(track)];
    unsubscribe = () => off.forEach((f) => f());
  };
  const attach = (next: Session, how: string) => {
    if (next.id !== session.id) dropIfEmpty(session.id);
    subscribe(next);
    spent = store.spendEvents(session.id);
    lastContext = undefined;
    ranTurn = false;
    screen.notice(`${how} ${session.id} · ${session.model} · agent ${agentName ?? DEFAULT_AGENT}`, chalk.dim);
    showLastExchange(session, screen);
  };
  /**
   * The same session opened again with its options built anew: as another agent, or with the
   * instruction files and memory index read again. Its approvals carry over; the MCP servers and
   * skills already running are kept (the registry holds them).
   */
  const reopen = (agent: string | undefined) => {
    // Instruction files read at start, if the settings carry them, are read again: /memory reload is for that.
    const { mcp: _mcp, foreignPermissions: _reported, instructions: _read, ...rest } = settings;
    const agents = settings.agents && agent ? { ...settings.agents, name: agent } : settings.agents;
    const before = settings.agents?.list.find((a) => a.name === agentName);
    const after = settings.agents?.list.find((a) => a.name === agent);
    // An agent's own model applies while it runs; otherwise the model the session had (a /model choice stays).
    const model = after?.model ?? (before?.model ? settings.model : session.model);
    // --permission-mode plan is the plan agent: leaving that agent leaves the mode too.
    const permissionMode = mode === "plan" && agent !== "plan" ? "default" : mode;
    const rebuilt = sessionOptions({ ...rest, model, permissionMode, ...(agents ? { agents } : {}) }, store, registry);
    // A mode switched to with Shift-Tab keeps its sandbox (auto mode's is on wherever it works).
    options = { ...keepSkills(rebuilt, options.skills), sandbox: permissionsInMode(settings, permissionMode).sandbox, onLeaseWait, titleCall: true };
    mode = permissionMode;
    const row = store.getSession(session.id);
    if (!row) throw new Error(`session ${session.id} is no longer in the store`);
    const next = Session.open(row, options);
    next.continueFrom(session);
    agentName = agent;
    subscribe(next);
    server?.hub?.adopt(next);
  };
  attach(session, args.resume || args.continue ? "resumed session" : "session");
  screen.notice("/help lists commands · Esc or Ctrl-C stops a turn, Ctrl-C twice at the prompt exits, Ctrl-D exits", chalk.dim);

  let server: ServedSession | undefined;
  const serve = async () => {
    if (server) return screen.notice(`already serving on ${server.url}`, chalk.dim);
    if (!hooks.serve) return screen.notice("serving is not available here: start rein with --serve", chalk.yellow);
    try {
      server = await hooks.serve(args, env, ctx, store, session);
      screen.notice(`this session is served on ${server.url}/sessions/${session.id} (events: /sessions/${session.id}/events${server.tokenNote ? `; ${server.tokenNote}` : ""})`, chalk.dim);
    } catch (error) {
      screen.print(chalk.red((error as Error).message));
    }
  };
  if (hooks.serveNow) await serve();

  return {
    ctx,
    crashOn: env.REIN_CRASH_TEST_PROMPT || undefined,
    ...(options.hooks?.entries.some((e) => e.active && e.event === "Notification") ? { idleNotifyMs: idleDelay(env.REIN_IDLE_NOTIFY_MS, warn) } : {}),
    host: {
      session: () => session,
      store: () => store,
      custom: () => commands,
      agents: () => (settings.agents?.list ?? []).map((a) => ({ name: a.name, mode: a.mode, description: a.description, source: a.source, current: a.name === (agentName ?? DEFAULT_AGENT) })),
      agent: () => agentName ?? DEFAULT_AGENT,
      primaryAgents: () => primaryAgents(settings.agents?.list ?? []),
      switchAgent: (name) => reopen(name),
      permissionMode: () => mode,
      permissionModes: () => modeCycle(settings.permissionMode),
      // The rules of the mode, from the next call on, in the session as it is (a turn may be running).
      switchMode: (next) => {
        const { rules, sandbox } = permissionsInMode({ ...settings, permissionMode: next }, next, agentName);
        mode = next;
        options = { ...options, rules, sandbox };
        session.setPermissions(rules, sandbox);
      },
      reload: () => reopen(agentName),
      prompts: () => options.skills?.prompts?.known() ?? [],
      tools: async () => (await registry.list()).tools.map(({ tool, source }) => ({ name: tool.name, source, description: tool.description })),
      // The session left behind is ended for its hooks (SessionEnd), the new one starts as "clear".
      newSession: async () => {
        await session.end("clear").catch(() => undefined);
        const next = Session.create(ctx.cwd, { ...options, model: session.model, startSource: "clear" });
        fresh.add(next.id);
        attach(next, "new session");
      },
      resume: async (id) => {
        const found = store.findSession(id);
        if (typeof found === "string") return found;
        await session.end("resume").catch(() => undefined);
        attach(resumeSession(found, options, ctx.args.model, warn), "resumed session");
        return undefined;
      },
      compact: async (focus) => {
        const outcome = await session.compact(focus);
        if (outcome.type !== "compacted") screen.print(chalk.dim(outcome.text));
      },
      serve,
    },
    status: (current) => statusLine(agentName ?? DEFAULT_AGENT, current.model, current.contextWindow, lastContext, sessionSpend(spent)),
    cleanup: async (code) => {
      unsubscribe();
      await server?.stop();
      await session.end("prompt_input_exit").catch(() => undefined); // SessionEnd hooks, before the store closes
      // memory.auto, when this process ran a turn and a terminal is still there to say what it kept
      if (ctx.config.memoryAuto && ranTurn && code !== 129) {
        // The terminal is cooked again: Ctrl-C is a SIGINT, and it ends the wait.
        const skip = new AbortController();
        const onInterrupt = () => skip.abort();
        process.on("SIGINT", onInterrupt);
        err(chalk.dim("memory.auto: looking for facts worth keeping… (Ctrl-C skips it)\n"));
        const line = await sessionEndMemoryLine(session, { dataDir: ctx.paths.dataDir, projectRoot: ctx.projectRoot, stream: options.stream, env }, skip.signal);
        process.off("SIGINT", onInterrupt);
        if (line) err(`rein: ${line}\n`);
      }
      const dropped = dropIfEmpty(session.id);
      store.close();
      if (!dropped) err(`session ${session.id} (resume: rein -r ${session.id})\n`);
    },
  };
}

/** `build · claude-sonnet-5-5 · context 3% of 1M · session: in 1200 (cache read 1000, write 30) · out 7 · $0.0123`, counted as /cost counts. */
function statusLine(agent: string, model: string, window: number, context: number | undefined, spend: ReturnType<typeof sessionSpend>): string {
  const used = context === undefined ? "" : ` · context ${Math.max(context > 0 ? 1 : 0, Math.round((context / window) * 100))}% of ${compact(window)}`;
  return `${agent} · ${model}${used} · ${costLine(spend, "session")}`;
}

function compact(tokens: number): string {
  return tokens >= 1_000_000 ? `${tokens / 1_000_000}M` : `${Math.round(tokens / 1000)}k`;
}

/**
 * The skills of the session as it was (with the MCP servers' prompts, which a rebuild without
 * attaching the servers again lacks), and their tool in place of the rebuilt one, so the skill a
 * tool call loads grants its allowed-tools where the permission broker reads them.
 */
function keepSkills(rebuilt: SessionOptions, skills: SessionOptions["skills"]): SessionOptions {
  if (!skills) return rebuilt;
  const tools = rebuilt.tools;
  const swap = (list: Extract<SessionOptions["tools"], unknown[]>) => list.map((tool) => (skills.tool && tool.name === skills.tool.name ? skills.tool : tool));
  return { ...rebuilt, skills, tools: async () => swap(await (typeof tools === "function" ? tools() : tools)) };
}

/** The agents Tab cycles through: build, plan, then the workspace's and the user's own (a file may replace a built-in one, keeping its place). */
function primaryAgents(list: NonNullable<RunSettings["agents"]>["list"]): string[] {
  const primary = list.filter((a) => a.mode !== "subagent").map((a) => a.name);
  const first = [DEFAULT_AGENT, "plan"].filter((name) => primary.includes(name));
  return [...first, ...primary.filter((name) => !first.includes(name))];
}

/** On resume: the last prompt and the end of the last answer, so the user sees where they were. */
function showLastExchange(session: Session, screen: Screen): void {
  const history = session.history();
  const lastUser = history.findLast((m) => m.role === "user" && m.content.some((b) => b.type === "text"));
  const lastAnswer = history.findLast((m) => m.role === "assistant" && m.content.some((b) => b.type === "text"));
  if (!lastUser || !lastAnswer) return;
  const text = (blocks: readonly { type: string }[]) => blocks.flatMap((b) => (b.type === "text" ? [(b as unknown as { text: string }).text] : [])).join("\n");
  const prompt = text(lastUser.content).split("\n")[0] ?? "";
  const md = markdownRenderer({ width: screen.width - 1, color: chalk.level > 0 });
  const rows = [...md.push(`${text(lastAnswer.content)}\n`), ...md.flush()];
  const tail = rows.length > RESUME_LINES ? [chalk.dim("…"), ...rows.slice(-RESUME_LINES)] : rows;
  screen.print([chalk.bold(`› ${visible(prompt.slice(0, screen.width - 3))}`), ...tail].join("\n"));
}
