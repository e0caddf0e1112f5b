// The team of a process: the background workers its sessions started (task with run_in_background,
// bash with background), their state, and the mailbox (mailbox.ts) through which a worker's
// `<task-notification>` and send_message's messages reach a session at its next turn boundary. Made
// on first use: a session that starts no worker never makes one. The task tool, send_message,
// task_stop, task_output, /tasks, `rein sessions show` and the front ends that wake an idle lead all
// read this one registry.
import { emptyUsage, addUsage, type TextBlock } from "../agent/types.ts";
import type { ResultEvent } from "./session.ts";
import type { SubagentParent } from "../agents/host.ts";
import { post, take, waiting } from "./mailbox.ts";
import type { Store } from "./store.ts";
import { actionOf, DEFAULT_WORKER_CAP, FINISHED, label, lastText, notificationText, round, summaryOf, type StartSpec, type Worker, type WorkerRun } from "./team-worker.ts";

export { DEFAULT_WORKER_CAP, FINISHED, notificationText, type StartSpec, type Worker, type WorkerRun, type WorkerState } from "./team-worker.ts";

/** how many times in a row TeammateIdle hooks may keep a member from going idle */
const MAX_IDLE_BLOCKS = 8;

type Live = Worker & { run?: WorkerRun; going?: Promise<void>; killed?: boolean; settling?: boolean; stop?: () => void; notifier?: SubagentParent; readOutput?: () => string };

export class Team {
  private readonly workers = new Map<string, Live>();
  private readonly wakers = new Map<string, Set<() => void>>();
  /** the sessions that started workers here: mail to one wakes it when idle */
  private readonly parents = new Map<string, SubagentParent>();
  private readonly changes = new Set<(worker: Worker) => void>();
  private readonly waiting: (() => void)[] = [];
  private active = 0;

  constructor(
    private readonly store: Store,
    readonly cap = DEFAULT_WORKER_CAP,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a worker in the background: it waits for a slot (at most `cap` run at once), runs, and notifies its parent. */
  start(spec: StartSpec): Worker {
    const { session, parent } = spec.run;
    if (spec.name && this.byName(spec.name, parent.id)) throw new Error(`a worker named "${spec.name}" already runs in this session; choose another name`);
    const worker: Live = {
      id: session.id,
      ...(spec.name ? { name: spec.name } : {}),
      kind: "agent",
      agent: spec.agent,
      description: spec.description,
      parentId: parent.id,
      toolUseId: spec.toolUseId,
      state: "queued",
      startedAt: this.now(),
      durationMs: 0,
      text: "",
      usage: emptyUsage(),
      cost: 0,
      toolUses: 0,
      lastAction: "",
      run: spec.run,
    };
    this.workers.set(worker.id, worker);
    this.parents.set(parent.id, parent);
    this.store.setTask(worker.id, { name: spec.name ?? null, state: "queued" });
    const off = session.subscribe((event) => {
      if (event.type === "assistant" && typeof event.cost_usd === "number" && worker.cost !== null) {
        worker.cost = round(worker.cost + event.cost_usd); // live, for the worker lines; set exactly when the run ends
        this.changed(worker);
      }
      if (event.type === "tool_start") {
        worker.toolUses++;
        worker.lastAction = actionOf(event.name, event.input);
        this.changed(worker);
      }
    });
    const release = spec.run.release;
    spec.run.release = () => (off(), release());
    this.track(worker, this.drive(worker, spec.prompt));
    return worker;
  }

  /** Joins a background bash command to the list; `stop` ends it, `ended` settles with its exit. */
  addCommand(spec: { id: string; parent: SubagentParent; toolUseId: string; command: string; stop: () => void; output: () => string; ended: Promise<number | null> }): Worker {
    const worker: Live = {
      id: spec.id,
      kind: "bash",
      agent: "bash",
      description: spec.command,
      parentId: spec.parent.id,
      toolUseId: spec.toolUseId,
      state: "running",
      startedAt: this.now(),
      durationMs: 0,
      text: "",
      usage: emptyUsage(),
      cost: 0,
      toolUses: 0,
      lastAction: spec.command,
      stop: spec.stop,
      notifier: spec.parent,
      readOutput: spec.output,
    };
    this.workers.set(worker.id, worker);
    this.parents.set(spec.parent.id, spec.parent);
    worker.going = spec.ended.then((code) => {
      worker.text = spec.output();
      worker.durationMs = this.now() - worker.startedAt;
      worker.state = worker.killed ? "killed" : code === 0 ? "completed" : "failed";
      if (worker.state === "failed") worker.error = `exit code ${code}`;
      this.notify(worker);
    });
    return worker;
  }

  /** The workers of session `parentId` (all of them when absent), in the order they started. */
  list(parentId?: string): Worker[] {
    return [...this.workers.values()].filter((w) => parentId === undefined || w.parentId === parentId).map(copy);
  }

  get(id: string): Worker | undefined {
    const worker = this.workers.get(id);
    return worker ? copy(worker) : undefined;
  }

  /** Whether session `id` still has workers running (or queued) or mail waiting: print mode's lead waits for them. */
  busy(id: string): boolean {
    // A background bash command (a dev server, say) is not waited for: it may run until rein exits.
    return [...this.workers.values()].some((w) => w.parentId === id && w.kind === "agent" && !FINISHED.includes(w.state)) || waiting(this.store.db, id) > 0;
  }

  /** Whether mail waits for session `id`. */
  pendingMail(id: string): boolean {
    return waiting(this.store.db, id) > 0;
  }

  /** Resolves when mail waits for session `id`, or when it has no worker left to wait for (or on abort). */
  async next(id: string, signal: AbortSignal): Promise<void> {
    while (!signal.aborted && waiting(this.store.db, id) === 0 && this.busy(id)) {
      await new Promise<void>((resolve) => {
        const off = this.onWake(id, () => (off(), signal.removeEventListener("abort", done), resolve()));
        const done = () => (off(), resolve());
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }

  /** Takes the mail waiting for session `id`, as the text blocks the model reads. */
  inbox(id: string): TextBlock[] {
    return take(this.store.db, id, this.now()).map((mail) => ({ type: "text" as const, text: mail.body }));
  }

  /** Calls `wake` whenever mail is posted to session `id` by this process; returns its removal. */
  onWake(id: string, wake: () => void): () => void {
    let set = this.wakers.get(id);
    if (!set) this.wakers.set(id, (set = new Set()));
    set.add(wake);
    return () => void set!.delete(wake);
  }

  /** Told whenever a worker starts, acts or ends (the terminal's worker lines). */
  onChange(listener: (worker: Worker) => void): () => void {
    this.changes.add(listener);
    return () => void this.changes.delete(listener);
  }

  /**
   * send_message: `to` is a task id, a worker's name or "lead" (the sender's parent). A running worker
   * reads it at its next turn boundary; a finished one is resumed with it. Returns what the sender reads.
   */
  send(fromId: string, to: string, message: string): { ok: boolean; text: string } {
    const target = this.resolve(fromId, to);
    if (typeof target === "string") return { ok: false, text: target };
    const from = this.workers.get(fromId);
    const sender = from ? (from.name ?? from.id) : "lead";
    post(this.store.db, target.id, sender, `<message from="${sender}">\n${message}\n</message>`, this.now());
    this.wake(target.id);
    const worker = this.workers.get(target.id);
    if (!worker) return { ok: true, text: `Message sent to ${to === "lead" ? "the lead" : target.id}.` };
    if (worker.kind === "bash") return { ok: false, text: `${to} is a bash command; it reads no messages. Stop it with task_stop or read it with task_output.` };
    if (FINISHED.includes(worker.state) && !worker.going) {
      if (!worker.run) return { ok: false, text: `${to} cannot be resumed in this process; continue it with task and task_id ${worker.id}.` };
      if (worker.run.resumable === false) return { ok: false, text: `${to} ended and its unchanged worktree was removed; start a new worker instead.` };
      worker.killed = false;
      worker.state = "queued";
      this.store.setTask(worker.id, { state: "queued" });
      this.track(worker, this.drive(worker, undefined));
      return { ok: true, text: `Message sent; ${label(worker)} had finished and was resumed with it (its conversation kept). Its notification comes when it ends again.` };
    }
    return { ok: true, text: `Message sent to ${label(worker)} (${worker.state}); it reads it at its next turn boundary.` };
  }

  /** task_stop: ends a running worker; its notification says killed. */
  stop(id: string, fromId: string): { ok: boolean; text: string } {
    const target = this.resolve(fromId, id);
    if (typeof target === "string") return { ok: false, text: target };
    const worker = this.workers.get(target.id);
    if (!worker) return { ok: false, text: `${id} is not a worker of this session.` };
    if (FINISHED.includes(worker.state)) return { ok: false, text: `${label(worker)} already ${worker.state}; nothing to stop.` };
    worker.killed = true;
    if (worker.kind === "bash") worker.stop?.();
    else if (worker.state === "queued") this.track(worker, this.settle(worker, undefined));
    else worker.run?.session.abort();
    return { ok: true, text: `Stopping ${label(worker)}; its notification will say killed.` };
  }

  /** task_output: what a worker has said so far, and its state. */
  output(id: string, fromId: string): { ok: boolean; text: string } {
    const target = this.resolve(fromId, id);
    if (typeof target === "string") return { ok: false, text: target };
    const worker = this.workers.get(target.id);
    if (!worker) return { ok: false, text: `${id} is not a worker of this session.` };
    const said = worker.readOutput ? worker.readOutput() : worker.text || lastText(this.store, worker.id);
    const cost = worker.cost === null ? "cost unknown" : `$${worker.cost.toFixed(4)}`;
    return {
      ok: true,
      text: `task_id: ${worker.id}\nstatus: ${worker.state}\n${worker.toolUses} tool uses, ${cost}${worker.lastAction ? `, last: ${worker.lastAction}` : ""}\n<output>\n${said}\n</output>`,
    };
  }

  /**
   * Stops every worker (the lead exits): running ones are aborted, queued ones never start; resolves
   * once all have ended. Background bash commands are left to stopBackground, which says which it stopped.
   */
  async stopAll(): Promise<void> {
    const agents = [...this.workers.values()].filter((w) => w.kind === "agent");
    for (const worker of agents) {
      if (FINISHED.includes(worker.state)) continue;
      worker.killed = true;
      if (worker.state === "queued") this.track(worker, this.settle(worker, undefined));
      else worker.run?.session.abort();
    }
    while (agents.some((w) => w.going)) await Promise.all(agents.map((w) => w.going));
  }

  private resolve(fromId: string, to: string): { id: string } | string {
    if (to === "lead") {
      const from = this.workers.get(fromId);
      return from ? { id: from.parentId } : "you are the lead: send to a worker's task id or name";
    }
    const worker = this.workers.get(to) ?? this.byName(to, this.leadOf(fromId)) ?? [...this.workers.values()].find((w) => w.name === to);
    if (worker) return { id: worker.id };
    const known = [...this.workers.values()].map((w) => (w.name ? `${w.name} (${w.id})` : w.id));
    return `No worker "${to}" in this team.${known.length ? ` Workers: ${known.join(", ")}` : " No worker has been started"}; or send to "lead".`;
  }

  private leadOf(id: string): string {
    let current = this.workers.get(id);
    let lead = id;
    while (current) {
      lead = current.parentId;
      current = this.workers.get(current.parentId);
    }
    return lead;
  }

  private byName(name: string, parentId: string): Live | undefined {
    return [...this.workers.values()].find((w) => w.name === name && this.leadOf(w.id) === this.leadOf(parentId) && !FINISHED.includes(w.state));
  }

  /** Runs the worker (first its prompt, then each batch of mail that came meanwhile) within a slot; then notifies. */
  private async drive(worker: Live, prompt: string | undefined): Promise<void> {
    const run = worker.run!;
    const ok = await this.slot(worker);
    let last: ResultEvent | undefined;
    if (ok && worker.killed) this.free();
    else if (ok) {
      worker.state = "running";
      this.store.setTask(worker.id, { state: "running" });
      this.changed(worker);
      try {
        let text = prompt ?? this.mail(worker.id);
        let idles = 0;
        while (text && !worker.killed) {
          const before = worker.cost;
          last = await run.session.prompt(text);
          worker.cost = before;
          worker.usage = addUsage(worker.usage, last.usage);
          worker.cost = worker.cost === null || last.cost_usd === null ? null : round(worker.cost + last.cost_usd);
          worker.durationMs += last.duration_ms;
          if (last.text) worker.text = last.text;
          run.parent.spent(last.usage, last.cost_usd);
          // What the worker read comes back in its notification: its taint goes to its parent.
          run.parent.tainted?.(run.session.taintSources());
          if (last.status !== "success") break;
          text = this.mail(worker.id);
          // TeammateIdle hooks keep a member going a bounded number of times in a row, as Stop hooks are.
          if (!text && run.idle && !worker.killed && idles++ < MAX_IDLE_BLOCKS) text = (await run.idle(new AbortController().signal)) ?? "";
          else if (text) idles = 0;
        }
      } catch (error) {
        worker.error = error instanceof Error ? error.message : String(error);
      } finally {
        this.free();
      }
    }
    await this.settle(worker, last);
  }

  /** `going` is what the worker is doing until it has notified (notify clears it too). */
  private track(worker: Live, going: Promise<void>): void {
    worker.going = going;
    void going.then(() => {
      if (worker.going === going) worker.going = undefined;
    });
  }

  private mail(id: string): string {
    return this.inbox(id).map((b) => b.text).join("\n\n");
  }

  /** The worker ended: its state is kept, its worktree finished (removed when unchanged), its parent notified. */
  private async settle(worker: Live, last: ResultEvent | undefined): Promise<void> {
    if (FINISHED.includes(worker.state) || worker.settling) return;
    worker.settling = true;
    // The state changes once the worktree is finished: until then the worker still counts as going (its lead waits).
    const finish = worker.run?.finish;
    if (finish) {
      const kept = await finish().catch((error) => `could not be checked: ${error instanceof Error ? error.message : String(error)}`);
      // A removed worktree leaves nothing to resume the worker in.
      if (kept === undefined) worker.run = { ...worker.run!, resumable: false };
      else worker.worktree = kept;
    }
    worker.settling = false;
    worker.state = worker.killed ? "killed" : last?.status === "success" ? "completed" : "failed";
    if (worker.state === "failed") worker.error ??= last ? (last.error ?? last.status) : "it did not start";
    this.store.setTask(worker.id, { state: worker.state });
    this.notify(worker);
  }

  /** The notification: a `task_notification` event on the parent's stream, and the model's text in its mailbox. */
  private notify(worker: Live): void {
    worker.going = undefined;
    const summary = summaryOf(worker);
    post(this.store.db, worker.parentId, worker.id, notificationText(worker, summary), this.now());
    const parent = worker.run?.parent ?? worker.notifier;
    parent?.notice({
      type: "task_notification",
      task_id: worker.id,
      tool_use_id: worker.toolUseId,
      status: worker.state as "completed",
      summary,
      ...(worker.name ? { name: worker.name } : {}),
      usage: worker.usage,
      cost_usd: worker.cost,
      duration_ms: worker.durationMs,
    });
    this.changed(worker);
    this.wake(worker.parentId);
  }

  private wake(id: string): void {
    this.parents.get(id)?.wake();
    for (const wake of [...(this.wakers.get(id) ?? [])]) wake();
  }

  private changed(worker: Live): void {
    for (const listener of this.changes) listener(copy(worker));
  }

  private slot(worker: Live): Promise<boolean> {
    if (this.active < this.cap) {
      this.active++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const start = () => {
        if (worker.killed) return resolve(false);
        this.active++;
        resolve(true);
      };
      this.waiting.push(start);
    });
  }

  private free(): void {
    this.active--;
    while (this.waiting.length && this.active < this.cap) this.waiting.shift()!();
  }
}

function copy(worker: Live): Worker {
  const { run: _, going: __, killed: ___, settling: _____, stop: ____, notifier: _n, readOutput: _r, ...plain } = worker;
  return { ...plain, usage: { ...plain.usage } };
}
