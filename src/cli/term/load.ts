// What the terminal loads behind its first prompt: the configuration, the store, the tools, the
// session, custom commands, and the server when asked for. Warnings print above the prompt.
import chalk from "chalk";
import { budgetWarning, DEFAULT_AGENT, initialTurn, instructionSources, type RunSettings, instructionWarnings, sessionOptions, toolRegistry } from "../../app/factory.ts";
import type { SessionOptions } from "../../session/session.ts";
import type { Args } from "../../app/args.ts";
import { startupWarnings, openStore, resolveContext, runSettings, untrustedToolsWarning, type Env } from "../../app/context.ts";
import { skillProblems } from "../../session/skills.ts";
import type { InteractiveHooks } from "../interactive.ts";
import { formatLoadError } from "../../app/load-errors.ts";
import type { App, Loaded } from "./app.ts";
import type { Screen } from "./screen.ts";
import { BUILTINS } from "./slash.ts";
import { idleDelay } from "./idle-notice.ts";
import { modeCycle } from "./mode-cycle.ts";
import { TerminalRun, type RunParts } from "./terminal-run.ts";

export async function loadSession(args: Args, env: Env, hooks: InteractiveHooks, screen: Screen, app: App): Promise<Loaded & { cleanup: (code: number) => Promise<void> }> {
  const parts = startRun(args, env, hooks, screen, app);
  const { ctx, settings, store, registry, warn, onLeaseWait } = parts;
  const options: SessionOptions = { ...sessionOptions(settings, store, registry), onLeaseWait, wakeWhenIdle: true, titleCall: true };
  for (const problem of options.skills ? skillProblems(options.skills.loaded) : []) warn(problem);
  const run = new TerminalRun(parts, options);
  run.attach(run.session, args.resume || args.continue ? "resumed session" : "session");
  screen.notice("/help lists commands · Esc or Ctrl-C stops a turn, Ctrl-C twice at the prompt exits, Ctrl-D exits", chalk.dim);
  if (hooks.serveNow) await run.serve();
  return {
    ctx,
    crashOn: env.REIN_CRASH_TEST_PROMPT || undefined,
    ...(options.hooks?.entries.some((e) => e.active && e.event === "Notification") ? { idleNotifyMs: idleDelay(env.REIN_IDLE_NOTIFY_MS, warn) } : {}),
    ...initialPromptOf(settings),
    host: slashHost(run),
    status: (current) => run.status(current),
    cleanup: (code) => run.cleanup(code),
  };
}

/** The configuration, the start-up warnings, the store and the tools: what the run is made of. */
function startRun(args: Args, env: Env, hooks: InteractiveHooks, screen: Screen, app: App): RunParts {
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
  return { args, env, hooks, screen, app, ctx, settings, store, registry, warn, onLeaseWait };
}

/** The main agent's initialPrompt, when it has one (Claude Code's field). */
function initialPromptOf(settings: RunSettings): Pick<Loaded, "initialTurn"> {
  const initial = settings.agents?.name ? settings.agents.list.find((a) => a.name === settings.agents!.name)?.initialPrompt : undefined;
  return initial ? { initialTurn: (prompt) => initialTurn(initial, prompt) } : {};
}

/** What the slash commands (and Tab, Shift-Tab) reach of the run. */
function slashHost(run: TerminalRun): Loaded["host"] {
  const { settings, store, registry } = run.parts;
  const agent = () => run.agentName ?? DEFAULT_AGENT;
  return {
    session: () => run.session,
    store: () => store,
    custom: () => run.commands,
    agents: () => (settings.agents?.list ?? []).map((a) => ({ name: a.name, mode: a.mode, description: a.description, source: a.source, current: a.name === agent() })),
    agent,
    primaryAgents: () => primaryAgents(settings.agents?.list ?? []),
    switchAgent: (name) => run.reopen(name),
    permissionMode: () => run.mode,
    permissionModes: () => modeCycle(settings.permissionMode),
    switchMode: (next) => run.switchMode(next),
    reload: () => run.reopen(run.agentName),
    prompts: () => run.options.skills?.prompts?.known() ?? [],
    tools: async () => (await registry.list()).tools.map(({ tool, source }) => ({ name: tool.name, source, description: tool.description })),
    newSession: () => run.newSession(),
    resume: (id) => run.resume(id),
    compact: async (focus) => {
      const outcome = await run.session.compact(focus);
      if (outcome.type !== "compacted") run.parts.screen.print(chalk.dim(outcome.text));
    },
    serve: () => run.serve(),
  };
}

/** The agents Tab cycles through: build, plan, then the workspace's and the user's own (a file may replace a built-in one, keeping its place). */
function primaryAgents(list: NonNullable<RunSettings["agents"]>["list"]): string[] {
  const primary = list.filter((a) => a.mode !== "subagent").map((a) => a.name);
  const first = [DEFAULT_AGENT, "plan"].filter((name) => primary.includes(name));
  return [...first, ...primary.filter((name) => !first.includes(name))];
}
