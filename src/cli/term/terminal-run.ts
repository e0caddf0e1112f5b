// The terminal's run once it is loaded (load.ts): the session it drives and what changes it (another
// agent, a permission mode, /clear, /resume, /memory reload), what the status line needs as events
// arrive, serving it, and what is done at exit. One object, so the slash commands' host reads and
// changes one state.
import chalk from "chalk";
import { promptTokens } from "../../app/model-window.ts";
import { DEFAULT_AGENT, permissionsInMode, sessionOptions, type RunSettings, type ToolRegistry } from "../../app/factory.ts";
import type { StampedEvent } from "../../app/events.ts";
import type { Args } from "../../app/args.ts";
import type { Context, Env } from "../../app/context.ts";
import { err } from "../../app/output.ts";
import { Session, type SessionOptions } from "../../session/session.ts";
import type { SpendEvent, Store } from "../../session/store.ts";
import { costLine, sessionSpend } from "../cost-line.ts";
import type { InteractiveHooks, ServedSession } from "../interactive.ts";
import { markdownRenderer } from "../markdown.ts";
import { openSession, resumeSession } from "../open-session.ts";
import { sessionEndMemoryLine } from "../session-end-memory.ts";
import type { App } from "./app.ts";
import { visible } from "./editor.ts";
import type { Screen } from "./screen.ts";

const RESUME_LINES = 12;

/** What the terminal's start-up resolved: the run's context, settings, store and tools. */
export type RunParts = {
  args: Args;
  env: Env;
  hooks: InteractiveHooks;
  screen: Screen;
  app: App;
  ctx: Context;
  settings: RunSettings;
  store: Store;
  registry: ToolRegistry;
  warn: (message: string) => void;
  onLeaseWait: (line: string) => void;
};

export class TerminalRun {
  session: Session;
  options: SessionOptions;
  agentName: string | undefined;
  mode: RunSettings["permissionMode"];
  server: ServedSession | undefined;
  /** the custom commands of the start (the slash menu's) */
  readonly commands: NonNullable<SessionOptions["skills"]>["loaded"]["commands"];
  /** Sessions started here that no prompt reached are dropped when left: no empty "(untitled)" ones. */
  private readonly fresh: Set<string>;
  // What the status line needs, kept as events arrive rather than read back from the store.
  private spent: (StampedEvent | SpendEvent)[] = [];
  private lastContext: number | undefined;
  private ranTurn = false;
  private unsubscribe = () => {};

  constructor(
    readonly parts: RunParts,
    options: SessionOptions,
  ) {
    this.options = options;
    this.agentName = parts.settings.agents?.name;
    this.mode = parts.settings.permissionMode;
    this.commands = options.skills?.loaded.commands ?? [];
    this.session = openSession(parts.ctx, parts.store, options, parts.warn);
    this.fresh = new Set(parts.args.resume || parts.args.continue ? [] : [this.session.id]);
  }

  dropIfEmpty(id: string): boolean {
    const { store } = this.parts;
    return this.fresh.delete(id) && store.lastSeq(id) === 0 && store.deleteSession(id);
  }

  private readonly track = (event: StampedEvent) => {
    // A subagent's events are its own; its spending arrives rolled up in the parent's result.
    if (event.parent_tool_use_id) return;
    if (event.type === "result") this.ranTurn = true;
    if (event.type === "result" || event.type === "title" || event.type === "compaction" || event.type === "assistant" || event.type === "user") this.spent.push(event);
    if (event.type === "assistant") {
      const u = event.usage;
      this.lastContext = promptTokens(u) + u.output_tokens;
    }
  };

  private subscribe(next: Session): void {
    this.unsubscribe();
    this.session = next;
    const off = [next.subscribe(this.parts.app.onEvent), next.subscribe(this.track)];
    this.unsubscribe = () => off.forEach((f) => f());
  }

  /** `next` becomes the session shown: the one left, if no prompt reached it, is dropped. */
  attach(next: Session, how: string): void {
    const { store, screen } = this.parts;
    if (next.id !== this.session.id) this.dropIfEmpty(this.session.id);
    this.subscribe(next);
    this.spent = store.spendEvents(next.id);
    this.lastContext = undefined;
    this.ranTurn = false;
    screen.notice(`${how} ${next.id} · ${next.model} · agent ${this.agentName ?? DEFAULT_AGENT}`, chalk.dim);
    showLastExchange(next, screen);
  }

  /**
   * The same session opened again with its options built anew: as another agent, or with the
   * instruction files and memory index read again. Its approvals carry over; the MCP servers and
   * skills already running are kept (the registry holds them).
   */
  reopen(agent: string | undefined): void {
    const { settings, store, registry, onLeaseWait } = this.parts;
    // Instruction files read at start, if the settings carry them, are read again: /memory reload is for that.
    const { mcp: _mcp, foreignPermissions: _reported, instructions: _read, ...rest } = settings;
    const agents = settings.agents && agent ? { ...settings.agents, name: agent } : settings.agents;
    const before = settings.agents?.list.find((a) => a.name === this.agentName);
    const after = settings.agents?.list.find((a) => a.name === agent);
    // An agent's own model applies while it runs; otherwise the model the session had (a /model choice stays).
    const model = after?.model ?? (before?.model ? settings.model : this.session.model);
    // --permission-mode plan is the plan agent: leaving that agent leaves the mode too.
    const permissionMode = this.mode === "plan" && agent !== "plan" ? "default" : this.mode;
    const rebuilt = sessionOptions({ ...rest, model, permissionMode, ...(agents ? { agents } : {}) }, store, registry);
    // A mode switched to with Shift-Tab keeps its sandbox (auto mode's is on wherever it works).
    this.options = { ...keepSkills(rebuilt, this.options.skills), sandbox: permissionsInMode(settings, permissionMode).sandbox, onLeaseWait, titleCall: true };
    this.mode = permissionMode;
    const row = store.getSession(this.session.id);
    if (!row) throw new Error(`session ${this.session.id} is no longer in the store`);
    const next = Session.open(row, this.options);
    next.continueFrom(this.session);
    this.agentName = agent;
    this.subscribe(next);
    this.server?.hub?.adopt(next);
  }

  /** The rules of the mode, from the next call on, in the session as it is (a turn may be running). */
  switchMode(next: RunSettings["permissionMode"]): void {
    const { rules, sandbox } = permissionsInMode({ ...this.parts.settings, permissionMode: next }, next, this.agentName);
    this.mode = next;
    this.options = { ...this.options, rules, sandbox };
    this.session.setPermissions(rules, sandbox);
  }

  /** The session left behind is ended for its hooks (SessionEnd), the new one starts as "clear". */
  async newSession(): Promise<void> {
    await this.session.end("clear").catch(() => undefined);
    const next = Session.create(this.parts.ctx.cwd, { ...this.options, model: this.session.model, startSource: "clear" });
    this.fresh.add(next.id);
    this.attach(next, "new session");
  }

  async resume(id: string): Promise<string | undefined> {
    const found = this.parts.store.findSession(id);
    if (typeof found === "string") return found;
    await this.session.end("resume").catch(() => undefined);
    this.attach(resumeSession(found, this.options, this.parts.ctx.args.model, this.parts.warn), "resumed session");
    return undefined;
  }

  async serve(): Promise<void> {
    const { hooks, screen, args, env, ctx, store } = this.parts;
    if (this.server) return screen.notice(`already serving on ${this.server.url}`, chalk.dim);
    if (!hooks.serve) return screen.notice("serving is not available here: start rein with --serve", chalk.yellow);
    try {
      const server = await hooks.serve(args, env, ctx, store, this.session);
      this.server = server;
      const id = this.session.id;
      screen.notice(`this session is served on ${server.url}/sessions/${id} (events: /sessions/${id}/events${server.tokenNote ? `; ${server.tokenNote}` : ""})`, chalk.dim);
    } catch (error) {
      screen.print(chalk.red((error as Error).message));
    }
  }

  /** `build · claude-sonnet-5-5 · context 3% of 1M · session: in 1200 (cache read 1000, write 30) · out 7 · $0.0123`, counted as /cost counts. */
  status(current: Session): string {
    const window = current.contextWindow;
    const context = this.lastContext;
    const used = context === undefined ? "" : ` · context ${Math.max(context > 0 ? 1 : 0, Math.round((context / window) * 100))}% of ${compact(window)}`;
    return `${this.agentName ?? DEFAULT_AGENT} · ${current.model}${used} · ${costLine(sessionSpend(this.spent), "session")}`;
  }

  async cleanup(code: number): Promise<void> {
    const { ctx, store, env } = this.parts;
    this.unsubscribe();
    await this.server?.stop();
    await this.session.end("prompt_input_exit").catch(() => undefined); // SessionEnd hooks, before the store closes
    // memory.auto, when this process ran a turn and a terminal is still there to say what it kept
    if (ctx.config.memoryAuto && this.ranTurn && code !== 129) {
      // The terminal is cooked again: Ctrl-C is a SIGINT, and it ends the wait.
      const skip = new AbortController();
      const onInterrupt = () => skip.abort();
      process.on("SIGINT", onInterrupt);
      err(chalk.dim("memory.auto: looking for facts worth keeping… (Ctrl-C skips it)\n"));
      const line = await sessionEndMemoryLine(this.session, { dataDir: ctx.paths.dataDir, projectRoot: ctx.projectRoot, stream: this.options.stream, env }, skip.signal);
      process.off("SIGINT", onInterrupt);
      if (line) err(`rein: ${line}\n`);
    }
    const dropped = this.dropIfEmpty(this.session.id);
    store.close();
    if (!dropped) err(`session ${this.session.id} (resume: rein -r ${this.session.id})\n`);
  }
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
