// The sessions a server drives: created over HTTP or opened from the store on first use, each the
// same Session object the terminal and print mode use. Prompts run in the background; the hub keeps
// their promises so shutdown can wait for them to persist.
import type { PermissionMode } from "../config/schema.ts";
import { newId } from "../session/ids.ts";
import { ifFree } from "../session/lease.ts";
import { Session, type ResultEvent, type SessionOptions } from "../session/session.ts";
import type { SessionRow, Store } from "../session/store.ts";
import type { ContentBlock, StampedEvent } from "../app/events.ts";
import { ApiError } from "./errors.ts";
import type { EventSource } from "./sse.ts";

export type SessionParams = {
  cwd?: string;
  model?: string;
  permission_mode?: PermissionMode;
  /** the agent the session runs as (--agent) */
  agent?: string;
  allow?: string[];
  deny?: string[];
  ask?: string[];
};

/** A session as the API shows it: the row's public fields, whether a prompt runs, what it was created with. */
export type SessionView = Pick<SessionRow, "id" | "cwd" | "model" | "title" | "created_at" | "updated_at"> & {
  running: boolean;
  settings: SessionParams;
};

export type HubDeps = {
  store: Store;
  /** SessionOptions for a new session with these parameters (validated by the caller's config rules) */
  optionsFor: (params: SessionParams) => { cwd: string; options: SessionOptions };
  /** SessionOptions for a stored session opened again */
  optionsForStored: (row: SessionRow) => SessionOptions;
  /** Saves the rules an "always" answer allows to the project or user config; returns the file. Throws an ApiError when it may not. */
  saveAlways?: (row: SessionRow, scope: "project" | "user", requests: AskRequests) => string;
  /** Whether the session's workspace is trusted (its project config may take "always" rules). */
  trusted?: (row: SessionRow) => boolean;
  /** A session idle this long (no prompt, no stream) is unloaded (its MCP servers closed) and opened again on next use; never when absent. */
  idleMs?: number;
  /** the clock idleness is measured by */
  now?: () => number;
};

export type ReplyScope = "session" | "project" | "user";
/** What an open ask needs decided, as the session holds it. */
export type AskRequests = ReturnType<Session["pendingAsks"]>[number]["requests"];

export class SessionHub {
  private readonly live = new Map<string, Session>();
  /** sessions someone else drives (the terminal's): that front end ends them, not the hub */
  private readonly adopted = new Set<string>();
  private readonly running = new Map<string, Promise<ResultEvent>>();
  private closing = false;
  /** streams to end when their session is deleted */
  private readonly watchers = new Map<string, Set<() => void>>();
  /** when each loaded session was last asked for, and how many streams follow it */
  private readonly used = new Map<string, number>();
  private readonly streams = new Map<string, number>();
  private readonly sweeper: ReturnType<typeof setInterval> | undefined;
  /**
   * Each followed session's stream listeners, fed through one subscription to the session object
   * live now: when the terminal reopens its session (a Tab to another agent, /memory reload) and
   * hands the hub the new object, the streams follow it.
   */
  private readonly followers = new Map<string, { listeners: Set<(event: StampedEvent) => void>; session: Session; off: () => void }>();

  constructor(private readonly deps: HubDeps) {
    const idleMs = deps.idleMs;
    if (idleMs === undefined) return;
    this.sweeper = setInterval(() => void this.unloadIdle(), Math.min(idleMs, 60_000));
    this.sweeper.unref?.();
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** Serves a session someone else drives too (the terminal's live session): the same object, the same events. */
  adopt(session: Session): void {
    this.live.set(session.id, session);
    this.adopted.add(session.id);
    const followed = this.followers.get(session.id);
    if (followed && followed.session !== session) {
      followed.off();
      followed.session = session;
      followed.off = session.subscribe((event) => this.fanOut(session.id, event));
    }
  }

  private fanOut(id: string, event: StampedEvent): void {
    for (const listener of this.followers.get(id)?.listeners ?? []) listener(event);
  }

  /** Follows the session's live events, whichever object carries them. */
  private follow(id: string, session: Session, listener: (event: StampedEvent) => void): () => void {
    let followed = this.followers.get(id);
    if (!followed || followed.session !== this.live.get(id)) {
      followed?.off();
      const current = this.live.get(id) ?? session;
      followed = { listeners: followed?.listeners ?? new Set(), session: current, off: current.subscribe((event) => this.fanOut(id, event)) };
      this.followers.set(id, followed);
    }
    followed.listeners.add(listener);
    return () => {
      const now = this.followers.get(id);
      if (!now) return;
      now.listeners.delete(listener);
      if (now.listeners.size === 0) {
        now.off();
        this.followers.delete(id);
      }
    };
  }

  create(params: SessionParams): Session {
    const { cwd, options } = this.deps.optionsFor(params);
    const session = Session.create(cwd, options, params);
    this.live.set(session.id, session);
    this.used.set(session.id, this.now());
    return session;
  }

  /**
   * A live session, opening (and repairing) a stored one on first use. The row is read every time:
   * a session trashed meanwhile (`rein sessions rm` in another process) is gone from the API.
   */
  get(id: string): Session {
    const row = this.row(id);
    this.used.set(id, this.now());
    const live = this.live.get(id);
    if (live) return live;
    let session: Session;
    try {
      session = Session.open(row, this.deps.optionsForStored(row));
    } catch (error) {
      throw new ApiError("session_unavailable", `session ${id} cannot be opened: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.live.set(id, session);
    return session;
  }

  list(): SessionView[] {
    return this.deps.store.listSessions({ limit: 200 }).map((row) => this.view(row));
  }

  info(id: string): SessionView {
    return this.view(this.row(id));
  }

  /** A live (not trashed) session's row. */
  row(id: string): SessionRow {
    const row = this.deps.store.getSession(id);
    if (!row) throw new ApiError("not_found", `no session ${id}`);
    if (row.deleted_at != null) throw new ApiError("not_found", `no session ${id}: it is in the trash (rein sessions restore ${id} brings it back)`);
    return row;
  }

  /** What a client follows: the session opened (so a session that cannot open fails here, as JSON), its store and its removal. */
  events(id: string): EventSource {
    const session = this.get(id);
    return {
      stored: (afterSeq, limit) => this.deps.store.events(id, afterSeq, limit),
      lastSeq: () => this.deps.store.lastSeq(id),
      subscribe: (listener) => {
        const unsubscribe = this.follow(id, session, listener);
        this.streams.set(id, (this.streams.get(id) ?? 0) + 1);
        return () => {
          unsubscribe();
          if (!this.streams.has(id)) return; // unloaded or removed meanwhile
          this.streams.set(id, (this.streams.get(id) ?? 1) - 1);
          this.used.set(id, this.now());
        };
      },
      onRemoved: (end) => this.onRemoved(id, end),
      exists: () => {
        const row = this.deps.store.getSession(id);
        return row !== undefined && row.deleted_at == null;
      },
    };
  }

  private view(row: SessionRow): SessionView {
    const { id, cwd, model, title, created_at, updated_at } = row;
    return { id, cwd, model, title, created_at, updated_at, running: this.running.has(id), settings: storedParams(row.settings) };
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** A session and the store for undo and its checkpoints; with `idle`, refused while a prompt runs. */
  idle(id: string, idle: boolean): { session: Session; store: Store } {
    const session = this.get(id);
    if (idle && (this.running.has(id) || session.running)) throw new ApiError("busy", "a prompt is running in this session; undo when it has finished");
    return { session, store: this.deps.store };
  }

  /** A new session from the first `at` messages of another (all when absent), as `rein sessions fork` makes it. */
  fork(id: string, at: number | undefined): { id: string; from: string; messages: number; requested: number } {
    const from = this.row(id).id;
    const forked = this.deps.store.forkSession(from, at, newId("s", this.now()), this.now());
    if (!forked) throw new ApiError("not_found", `no session ${from}: it disappeared while forking it`);
    return { id: forked.session.id, from, messages: forked.messages, requested: forked.requested };
  }

  /** Starts a prompt; the promise settles with its result event. */
  prompt(id: string, text: string, attachments: readonly ContentBlock[] = []): Promise<ResultEvent> {
    if (this.closing) throw new ApiError("busy", "the server is shutting down");
    const session = this.get(id);
    if (this.running.has(id) || session.running) throw new ApiError("busy", "a prompt is already running in this session; wait for its result or abort it");
    // Another process's run holds the session's lease (a terminal or print mode on the same session).
    if (!ifFree(this.deps.store.db, id, () => {})) {
      throw new ApiError("busy", `session ${id} is in use by another rein process (a terminal or print mode run); try again when that run has finished`);
    }
    const run = session.prompt(text, attachments).finally(() => this.running.delete(id));
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

  /** Answers an ask; an "always" for the project or the user is saved first. Returns the file saved to, if any. */
  reply(id: string, askId: string, reply: "once" | "always" | "reject", message?: string, scope: ReplyScope = "session"): string | undefined {
    const session = this.get(id);
    const ask = session.pendingAsks().find((a) => a.id === askId);
    let saved: string | undefined;
    if (ask && reply === "always" && scope !== "session") {
      if (!this.deps.saveAlways) throw new ApiError("bad_request", `"scope": this server keeps "always" answers for the session only`);
      saved = this.deps.saveAlways(this.row(id), scope, ask.requests);
    }
    if (!session.reply(askId, reply, message)) {
      const answered = this.deps.store.events(id).some((e) => e.type === "permission_reply" && e.id === askId);
      if (answered) throw new ApiError("already_answered", `permission ask ${askId} was already answered`);
      throw new ApiError("not_found", `no open permission ask ${askId} in session ${id}`);
    }
    return saved;
  }

  trusted(id: string): boolean {
    return this.deps.trusted?.(this.row(id)) ?? false;
  }

  /** Moves a session to the trash (as `rein sessions rm` does), or with `purge` deletes it for good. */
  async remove(id: string, purge = false): Promise<void> {
    this.row(id);
    const run = this.running.get(id);
    if (run) {
      this.live.get(id)?.abort();
      await run.catch(() => {});
    }
    // SessionEnd hooks, before the session's rows go
    const session = this.live.get(id);
    if (session && !this.adopted.has(id)) await this.unload(id, session);
    this.live.delete(id);
    if (purge) this.deps.store.deleteSession(id);
    else this.deps.store.trashSession(id);
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

  /**
   * Stops new prompts, aborts running ones and waits (bounded) until they are persisted; then ends
   * the sessions it drives for their hooks (SessionEnd, each hook within its own timeout).
   */
  async shutdown(timeoutMs = 4000): Promise<void> {
    this.closing = true;
    for (const id of this.running.keys()) this.live.get(id)?.abort();
    const all = Promise.allSettled([...this.running.values()]);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
    clearInterval(this.sweeper);
    const owned = [...this.live].filter(([id]) => !this.adopted.has(id));
    await Promise.allSettled(owned.map(([id, session]) => this.unload(id, session)));
  }

  /** Unloads the sessions idle for `idleMs`: no prompt running, no stream following, not asked for meanwhile. */
  async unloadIdle(): Promise<string[]> {
    const idleMs = this.deps.idleMs;
    if (idleMs === undefined || this.closing) return [];
    const now = this.now();
    const idle = [...this.live].filter(
      ([id, session]) => !this.adopted.has(id) && !this.running.has(id) && !session.running && !this.streams.get(id) && now - (this.used.get(id) ?? now) >= idleMs,
    );
    await Promise.allSettled(idle.map(([id, session]) => this.unload(id, session)));
    return idle.map(([id]) => id);
  }

  /** Ends a session the hub drives (SessionEnd hooks) and closes its MCP servers; it is opened again on next use. */
  private async unload(id: string, session: Session): Promise<void> {
    if (this.live.get(id) === session) this.live.delete(id);
    this.used.delete(id);
    this.streams.delete(id);
    await session.end("other").catch(() => undefined);
    await session.close().catch(() => undefined);
  }
}

/** The parameters a session was created with over HTTP (its permission mode and rules), if kept. */
export function storedParams(settings: string | null | undefined): SessionParams {
  if (!settings) return {};
  try {
    const { permission_mode, agent, allow, deny, ask } = JSON.parse(settings) as SessionParams;
    return { ...(permission_mode ? { permission_mode } : {}), ...(agent ? { agent } : {}), ...(allow ? { allow } : {}), ...(deny ? { deny } : {}), ...(ask ? { ask } : {}) };
  } catch {
    return {};
  }
}
