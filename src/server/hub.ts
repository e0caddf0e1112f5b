// The sessions a server drives: created over HTTP or opened from the store on first use, each the
// same Session object the terminal and print mode use. Prompts run in the background; the hub keeps
// their promises so shutdown can wait for them to persist.
import type { StampedEvent } from "../session/events.ts";
import { Session, type ResultEvent, type SessionOptions } from "../session/session.ts";
import type { SessionRow, Store } from "../session/store.ts";

export type SessionParams = {
  cwd?: string;
  model?: string;
  permission_mode?: "default" | "plan" | "accept-edits" | "auto";
  allow?: string[];
  deny?: string[];
  ask?: string[];
};

export type HubDeps = {
  store: Store;
  /** SessionOptions for a new session with these parameters (validated by the caller's config rules) */
  optionsFor: (params: SessionParams) => { cwd: string; options: SessionOptions };
  /** SessionOptions for a stored session opened again */
  optionsForStored: (row: SessionRow) => SessionOptions;
};

export class HubError extends Error {
  constructor(
    readonly code: "not_found" | "busy" | "bad_request" | "already_answered",
    message: string,
  ) {
    super(message);
  }
}

export class SessionHub {
  private readonly live = new Map<string, Session>();
  private readonly running = new Map<string, Promise<ResultEvent>>();
  private closing = false;
  /** streams to end when their session is deleted */
  private readonly watchers = new Map<string, Set<() => void>>();

  constructor(private readonly deps: HubDeps) {}

  /** Serves a session someone else drives too (the terminal's live session): the same object, the same events. */
  adopt(session: Session): void {
    this.live.set(session.id, session);
  }

  create(params: SessionParams): Session {
    const { cwd, options } = this.deps.optionsFor(params);
    const session = Session.create(cwd, options, params);
    this.live.set(session.id, session);
    return session;
  }

  /** A live session, opening (and repairing) a stored one on first use. */
  get(id: string): Session {
    const live = this.live.get(id);
    if (live) return live;
    const row = this.deps.store.getSession(id);
    if (!row) throw new HubError("not_found", `no session ${id}`);
    const session = Session.open(row, this.deps.optionsForStored(row));
    this.live.set(id, session);
    return session;
  }

  list(): (SessionRow & { running: boolean })[] {
    return this.deps.store.listSessions({ limit: 200 }).map((row) => ({ ...row, running: this.running.has(row.id) }));
  }

  info(id: string): SessionRow & { running: boolean } {
    return { ...this.row(id), running: this.running.has(id) };
  }

  storedEvents(id: string, afterSeq: number): StampedEvent[] {
    return this.deps.store.events(id, afterSeq);
  }

  row(id: string): SessionRow {
    const row = this.deps.store.getSession(id);
    if (!row) throw new HubError("not_found", `no session ${id}`);
    return row;
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** Starts a prompt; the promise settles with its result event. */
  prompt(id: string, text: string): Promise<ResultEvent> {
    if (this.closing) throw new HubError("busy", "the server is shutting down");
    const session = this.get(id);
    if (this.running.has(id) || session.running) throw new HubError("busy", "a prompt is already running in this session; wait for its result or abort it");
    const run = session.prompt(text).finally(() => this.running.delete(id));
    this.running.set(id, run);
    return run;
  }

  abort(id: string): boolean {
    const session = this.live.get(id);
    if (!session?.running) {
      this.row(id);
      return false;
    }
    session.abort();
    return true;
  }

  reply(id: string, askId: string, reply: "once" | "always" | "reject", message?: string): void {
    const session = this.get(id);
    if (!session.reply(askId, reply, message)) {
      const answered = this.deps.store.events(id).some((e) => e.type === "permission_reply" && e.id === askId);
      if (answered) throw new HubError("already_answered", `permission ask ${askId} was already answered`);
      throw new HubError("not_found", `no open permission ask ${askId} in session ${id}`);
    }
  }

  async remove(id: string): Promise<void> {
    this.row(id);
    const run = this.running.get(id);
    if (run) {
      this.live.get(id)?.abort();
      await run.catch(() => {});
    }
    this.live.delete(id);
    this.deps.store.deleteSession(id);
    for (const end of this.watchers.get(id) ?? []) end();
    this.watchers.delete(id);
  }

  /** Calls `end` when the session is deleted; returns the way to stop watching. */
  onRemoved(id: string, end: () => void): () => void {
    const set = this.watchers.get(id) ?? new Set();
    set.add(end);
    this.watchers.set(id, set);
    return () => set.delete(end);
  }

  /** Live events of a session (opening it if it is only stored). */
  subscribe(id: string, listener: (event: StampedEvent) => void): () => void {
    return this.get(id).subscribe(listener);
  }

  /** Stops new prompts, aborts running ones and waits (bounded) until they are persisted. */
  async shutdown(timeoutMs = 4000): Promise<void> {
    this.closing = true;
    for (const id of this.running.keys()) this.live.get(id)?.abort();
    const all = Promise.allSettled([...this.running.values()]);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
  }
}
