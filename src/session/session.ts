// The Session: the one object every front end drives. It runs the loop, persists every event before
// subscribers see it, keeps the conversation, and brokers permission asks. What it holds is a
// SessionCore (session-core.ts); a prompt's run is run-prompt.ts's pipeline; this file is the
// front ends' surface.
import { emptyUsage, type ContentBlock, type Message, type PermissionReply } from "../agent/types.ts";
import type { LspSession } from "../lsp/session.ts";
import type { SessionMcp } from "../mcp/session.ts";
import type { Rule } from "../permission/evaluate.ts";
import type { Ask } from "./broker.ts";
import { withChosenModel } from "./chosen-model.ts";
import { compactHeld } from "./compact-with.ts";
import { newId } from "./ids.ts";
import { ifFree } from "./lease.ts";
import { offeredTools } from "./loop-io.ts";
import type { CompactOutcome } from "./manual-compaction.ts";
import { openView } from "./open-view.ts";
import { runPrompt } from "./run-prompt.ts";
import { nameSession } from "./title.ts";
import { internalError, SessionCore } from "./session-core.ts";
import type { Listener, ResultEvent, SessionOptions, SessionSandbox } from "./session-options.ts";
import type { SessionRow } from "./store.ts";
import type { TaintSource } from "./taint.ts";
import type { Team } from "./team.ts";
import type { TeamHookAnswer, TeamHookEvent } from "../hooks/points.ts";

export type { ResultEvent, SessionOptions, SessionSandbox, TeamHolder } from "./session-options.ts";
export type { CompactOutcome } from "./manual-compaction.ts";

export class Session {
  private readonly core: SessionCore;
  /** the last event another writer stored that showStored has shown */
  private storedShown = 0;

  private constructor(row: SessionRow, options: SessionOptions, messages: Message[], view?: ReturnType<typeof openView>) {
    this.core = new SessionCore(row, options, messages, (text) => this.prompt(text), view?.compaction);
  }

  /** `settings` is kept with the session (JSON) so a front end can open it again the same way. */
  /** `id`: the new session's id when the caller chose one (Claude Code's --session-id); a fresh one otherwise. */
  static create(cwd: string, options: SessionOptions, settings?: Record<string, unknown>, id?: string): Session {
    const row = options.store.createSession(
      { id: id ?? newId("s"), cwd, model: options.model, ...(settings ? { settings: JSON.stringify(settings) } : {}) },
      options.now?.(),
    );
    return new Session(row, options, []);
  }

  /** Opens a stored session, first repairing what a crash left so the conversation is valid again. */
  static open(row: SessionRow, options: SessionOptions): Session {
    // Repairs are stored only when no other process drives the session (its tool calls may still be running).
    let opened: ReturnType<typeof openView> | undefined;
    ifFree(options.store.db, row.id, () => (opened = openView(row, options.store)), options.now?.());
    const view = opened ?? openView(row, options.store, false);
    const session = new Session(row, options, view.view, view);
    session.core.storedSize = view.size;
    session.core.stale = opened === undefined;
    return session;
  }

  get row(): SessionRow {
    return this.core.row;
  }

  get id(): string {
    return this.core.id;
  }

  /** where this session's checkpoints are kept (undefined when it takes none) */
  get checkpointsDir(): string | undefined {
    return this.core.options.checkpoints?.dir;
  }

  get running(): boolean {
    return this.core.controller !== undefined;
  }

  /** print mode: a run that ends with workers still going waits for their notifications and answers them */
  get waitsForWorkers(): boolean {
    return this.core.waitsForWorkers;
  }

  set waitsForWorkers(waits: boolean) {
    this.core.waitsForWorkers = waits;
  }

  history(): readonly Message[] {
    return this.core.messages;
  }

  /** The names of the tools a turn offers now, the task tool and the deferred-tool loader included (claude-stream-json's init line). */
  async toolNames(): Promise<string[]> {
    return (await offeredTools(this.core)).map((tool) => tool.name);
  }

  /** The session's MCP servers as they stand (none without MCP). */
  async mcpServers(): Promise<Awaited<ReturnType<SessionMcp["servers"]>>> {
    return (await this.core.options.mcp?.servers()) ?? [];
  }

  /** The session's language servers and their state (none without any configured). */
  lspServers(): ReturnType<LspSession["status"]> {
    return this.core.options.lsp?.status() ?? [];
  }

  subscribe(listener: Listener): () => void {
    this.core.listeners.add(listener);
    return () => this.core.listeners.delete(listener);
  }

  /** `attachments` (images a client sent along) follow the text in the user's message. */
  prompt(text: string, attachments: readonly ContentBlock[] = []): Promise<ResultEvent> {
    const first = this.core.messages.length === 0 && this.core.options.titleCall === true && !this.core.titling;
    const run = runPrompt(this.core, text, attachments);
    if (!first) return run;
    return run.then((result) => {
      // After the first turn, not holding its answer back: the session is named while the person reads.
      if (result.status === "success" && this.core.messages.length > 0) {
        const stop = new AbortController();
        this.core.titling = { done: nameSession(this.core, text, result.text, stop.signal), stop };
      }
      return result;
    });
  }

  /** Settles once the hidden call naming the session after its first turn is done (at once when there is none). */
  named(): Promise<void> {
    return this.core.titling?.done ?? Promise.resolve();
  }

  /** Shows the listeners what another writer stored for this session since its own last event (undo, redo or a restore over HTTP). */
  showStored(): void {
    const core = this.core;
    // lastSeq stays: the session still sees that another writer changed its conversation, and reloads before its next run.
    for (const event of core.options.store.events(core.id, Math.max(core.lastSeq, this.storedShown))) {
      this.storedShown = event.seq;
      core.notify(event);
    }
  }

  /** Settles once no run holds this session (a run's `result` is emitted just before it lets go). */
  whenIdle(): Promise<void> {
    return this.core.whenIdle();
  }

  /** Calls `listener` when mail (a worker's notification, a message to the lead) waits while no run is under way. */
  onWake(listener: () => void): () => void {
    this.core.wakeListeners.add(listener);
    return () => void this.core.wakeListeners.delete(listener);
  }

  /** Whether mail waits for this session (a front end that was told to wake runs `answerMail`). */
  get hasMail(): boolean {
    const team = this.core.options.team?.current;
    return team !== undefined && !this.core.controller && team.pendingMail(this.id);
  }

  /** Runs the mail waiting for this session as a prompt of its own (an idle lead answers its workers); undefined when there is none or a run is under way. */
  answerMail(): Promise<ResultEvent | undefined> {
    return this.core.answerMail();
  }

  /** The team of this process, when a worker was started (front ends list and stop its workers). */
  get team(): Team | undefined {
    return this.core.options.team?.current;
  }

  /**
   * Summarises the whole conversation now (the terminal's /compact), keeping what concerns `focus`
   * above all; the compaction event says how. A compaction that would not make the conversation
   * smaller is not kept ("nothing"); "stopped" when the session is busy or the compaction was
   * aborted (the conversation is then as it was).
   */
  async compact(focus?: string): Promise<CompactOutcome> {
    const core = this.core;
    if (core.controller) return { type: "stopped", text: "a prompt is running in this session; compact when it has finished" };
    const controller = new AbortController();
    core.controller = controller;
    try {
      const busy = await core.claim(controller.signal);
      if (busy !== undefined) return { type: "stopped", text: busy || "stopped before the compaction was done; the conversation is as it was" };
      return await compactHeld(core, controller.signal, focus);
    } finally {
      core.lease.release();
      core.letGo();
    }
  }

  /**
   * `compact` as a run of its own (print mode's --compact): the `session` event, the compaction, and
   * a closing `result` with turns 0, the summary call's usage and cost, and one line saying what
   * was done (or that there was nothing worth compacting) as its text.
   */
  async compactRun(focus?: string): Promise<ResultEvent> {
    const core = this.core;
    if (core.controller) throw new Error("a prompt is already running in this session");
    const controller = new AbortController();
    core.controller = controller;
    const startedAt = core.now;
    core.inRun = true;
    try {
      const busy = await core.claim(controller.signal);
      core.announce();
      if (busy !== undefined) return core.refused(busy, controller.signal, startedAt);
      const outcome = await compactHeld(core, controller.signal, focus);
      const usage = outcome.usage ?? emptyUsage();
      if (core.saveError) return core.result(startedAt, "error", { usage, error: core.saveError });
      if (outcome.type === "stopped") return core.result(startedAt, "interrupted", { usage, error: outcome.text });
      return core.result(startedAt, "success", { text: outcome.text, usage });
    } catch (error) {
      return core.result(startedAt, "error", { error: core.saveError ?? internalError(error) });
    } finally {
      core.lease.release();
      core.inRun = false;
      core.saveError = undefined;
      core.letGo();
    }
  }

  /**
   * Ends the session for its hooks (SessionEnd), once for each SessionStart: a front end calls it as
   * it lets the session go; a second call, or one before any prompt started the session, does nothing.
   */
  async end(reason: string, signal?: AbortSignal): Promise<void> {
    const core = this.core;
    core.checkpoints?.close();
    if (!core.hooks || !core.hooksStarted) return;
    core.hooksStarted = false;
    const limit = AbortSignal.timeout(60_000);
    await core.hooks.points.sessionEnd(reason, signal ? AbortSignal.any([signal, limit]) : limit);
    core.hooks.rest();
  }

  /** Lets go of what the session holds open besides the store (its MCP servers): the front end is done with it. */
  async close(): Promise<void> {
    // A title call still out is given up: leaving never waits on it (the first line stays the title).
    this.core.titling?.stop.abort();
    await this.core.titling?.done;
    this.core.options.lsp?.close();
    await this.core.options.mcp?.close();
  }

  /** Tells the session's Notification hooks (the terminal's prompt is idle); nothing without hooks. */
  async notifyHooks(type: "idle_prompt", message: string): Promise<void> {
    await this.core.hooks?.points.notify(type, message);
  }

  /** the current model's window: compaction and the context meter follow a switch of model */
  get contextWindow(): number {
    return this.core.contextWindow;
  }

  get model(): string {
    return this.core.options.model;
  }

  /** The model for the next turns (the terminal's /model); refused while a turn runs. */
  setModel(model: string): void {
    const core = this.core;
    if (core.controller) throw new Error("the model cannot change while a turn runs");
    model = core.options.models?.resolve?.(model, core.options.model) ?? model;
    const problem = core.options.models?.problem?.(model);
    if (problem) throw new Error(problem);
    core.options = { ...core.options, model };
    // Kept as chosen: resuming the session goes on with it (cli/open-session.ts).
    const settings = withChosenModel(core.options.store.getSession(this.id)?.settings, model);
    core.options.store.updateSession(this.id, { model, settings });
  }

  /** The rules in force, in evaluation order (the last match wins). */
  rules(): readonly Rule[] {
    return this.core.options.rules;
  }

  /** What the user approved with "always" in this session. */
  approvals(): readonly Rule[] {
    return this.core.broker.approvals;
  }

  /**
   * Carries on from another object of this session that is being let go (the terminal reopens it to
   * switch agent or reload memory): its approvals, and its SessionStart, so hooks see one session.
   */
  continueFrom(previous: Session): void {
    const approvals = this.core.broker.approvals;
    for (const rule of previous.approvals()) if (!approvals.includes(rule)) approvals.push(rule);
    this.core.hooksStarted ||= previous.core.hooksStarted;
    previous.core.hooksStarted = false;
  }

  /** Adds approvals for the rest of this session (a configured deny still wins). */
  approve(rules: readonly Rule[]): void {
    this.core.broker.approve(rules);
  }

  /**
   * The rules (and sandbox) of another permission mode, from the next call on: the terminal's
   * Shift-Tab. The approvals given so far stay.
   */
  setPermissions(rules: readonly Rule[], sandbox?: SessionSandbox): void {
    this.core.options = { ...this.core.options, rules, ...(sandbox ? { sandbox } : {}) };
  }

  /** Withdraws one of this session's approvals; the rule removed, or undefined for a bad index. */
  revoke(index: number): Rule | undefined {
    const approvals = this.core.broker.approvals;
    if (!Number.isInteger(index) || index < 0 || index >= approvals.length) return undefined;
    return approvals.splice(index, 1)[0];
  }

  /** Answers an ask of this session, or of a subagent running under it. */
  reply(askId: string, reply: PermissionReply, message?: string): boolean {
    return this.core.broker.reply(askId, reply, message) || [...this.core.answerers].some((answer) => answer(askId, reply, message));
  }

  pendingAsks(): Ask[] {
    return this.core.broker.pending();
  }

  /** Stops the stream and running tools; the partial reply is kept and the session stays resumable. */
  abort(): void {
    const controller = this.core.controller;
    if (!controller || controller.signal.aborted) return;
    controller.abort();
    this.core.broker.rejectAll("the run was interrupted");
  }

  /** What taints the session now (none without taint tracking). */
  /** Fires one of the team's hooks in this session (a worker's TeammateIdle); undefined when none is configured. */
  teamHook(event: TeamHookEvent, fields: Record<string, unknown>, signal: AbortSignal): Promise<TeamHookAnswer | undefined> {
    return this.core.hooks?.points.team(event, fields, signal) ?? Promise.resolve(undefined);
  }

  taintSources(): TaintSource[] {
    return this.core.taint?.active() ?? [];
  }

  /** A person trusts this content: it no longer taints the session (stored). False when it taints nothing now. */
  clearTaint(source: string): boolean {
    if (!this.core.taint?.clear(source)) return false;
    this.core.persist({ type: "taint_cleared", source });
    return true;
  }
}
