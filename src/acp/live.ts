// What `rein acp` holds while it serves: the client, what it offered, and each ACP session that is
// open as a live rein Session whose events become `session/update`s and whose permission asks
// become `session/request_permission`s. The request handlers (handlers.ts) work on this state.
import type * as acp from "@agentclientprotocol/sdk";
import { Session, type ResultEvent, type SessionOptions } from "../session/session.ts";
import type { SessionRow, Store } from "../session/store.ts";
import type { FileAccess } from "../sdk.ts";
import { clientFiles } from "./client-files.ts";
import { configOptions, type ModelOption } from "./config-options.ts";
import { changesFiles, fileChange, pathOf, readBefore, type Before } from "./file-change.ts";
import { modeChoice, storedMode, withMode, type ModeChoice } from "./modes.ts";
import { askPermission } from "./permission.ts";
import { withReinCommands, type Command } from "./rein-commands.ts";
import { CODES, RpcError, type Peer } from "./rpc.ts";
import { translator } from "./updates.ts";

export type AcpDeps = {
  store: Store;
  version: string;
  /** What a session in `cwd` runs on, or the sentence saying why it cannot run (no key for its model). */
  optionsFor: (cwd: string, row?: SessionRow, mode?: ModeChoice, mcpServers?: Record<string, unknown>, fileAccess?: FileAccess) => SessionOptions | { problem: string };
  /** the modes a session in `cwd` can switch between, and the one it starts in */
  modes: (cwd: string) => acp.SessionModeState;
  /** the models a session in `cwd` can switch to (those of the providers with a key) */
  models: (cwd: string) => ModelOption[];
  warn: (message: string) => void;
};

export type Live = {
  session: Session;
  cwd: string;
  /** the mode the session runs in (an id of `modes`) */
  mode: string;
  mcp: Record<string, unknown>;
  run?: Promise<ResultEvent>;
  stop: string | null;
  unsubscribe: () => void;
  /** settles once every event so far has been sent (an edit's update waits for the file's text) */
  sent: Promise<void>;
};

export type AcpState = {
  deps: AcpDeps;
  live: Map<string, Live>;
  client?: Peer;
  offered?: acp.ClientCapabilities;
};

export const authRequired = (message: string) => new RpcError(CODES.authRequired, `Authentication required: ${message}`);
export const sessionNotFound = (sessionId: string) => new RpcError(CODES.notFound, "Resource not found", { sessionId });
export const invalidRequest = (message: string) => new RpcError(CODES.invalidRequest, `Invalid request: ${message}`);
const availableCommand = (c: Command): acp.AvailableCommand => ({ name: c.name, description: c.description, ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}) });

export function notify(state: AcpState, sessionId: string, update: acp.SessionUpdate): void {
  state.client?.notify("session/update", { sessionId, update } satisfies acp.SessionNotification);
}

/** The session's events go to the client as updates from now on; it is known by its id. */
export function attach(state: AcpState, session: Session, cwd: string, mcp: Record<string, unknown>, mode: string): Live {
  const entry: Live = { session, cwd, mode, mcp, stop: null, unsubscribe: () => {}, sent: Promise.resolve() };
  const calls = new Map<string, { name: string; input: unknown; before?: Before }>();
  const translate = translator(cwd, () => session.contextWindow, Date.now, (id) => calls.get(id)?.before);
  const access = files(state, () => session.id);
  let waiting = 0; // events queued behind a file's text
  entry.unsubscribe = session.subscribe((event) => {
    if (event.type === "assistant" && !event.parent_tool_use_id) entry.stop = event.stop_reason;
    // An edit's or write's file is read as the call starts, before it can run; its updates wait for the text.
    let reading: Before | Promise<Before> | undefined;
    if (event.type === "tool_start") {
      const path = changesFiles(event.name) ? pathOf(event.input, cwd) : undefined;
      if (path) reading = readBefore(path, access);
      calls.set(event.id, { name: event.name, input: event.input });
    }
    const send = (before: Before) => {
      if (event.type === "tool_start" && reading !== undefined) calls.get(event.id)!.before = before;
      // A subagent's own text and calls stay inside its task call; its permission asks still reach the client.
      if (!event.parent_tool_use_id) for (const update of translate(event)) notify(state, session.id, update);
      if (event.type === "permission_ask" && state.client) {
        const call = calls.get(event.tool_use_id);
        void askPermission(state.client, session, event, call?.input, cwd, call && fileChange(call.name, call.input, call.before, cwd));
      }
      if (event.type === "tool_end") calls.delete(event.id);
    };
    if (!(reading instanceof Promise) && waiting === 0) return send(reading);
    waiting++;
    const read = reading;
    entry.sent = entry.sent
      .then(async () => send(await read))
      .catch((error: unknown) => state.deps.warn(`rein acp: an update could not be sent: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => waiting--);
  });
  state.live.set(session.id, entry);
  return entry;
}

/** The editor's buffers, for the session the editor names (its id is known once the session is created). */
function files(state: AcpState, sessionId: () => string): FileAccess | undefined {
  return state.client ? clientFiles(state.client, state.offered, sessionId) : undefined;
}

/** What a session runs on; a session that cannot run (no key) is authentication required. */
export function options(state: AcpState, cwd: string, row?: SessionRow, mode?: ModeChoice, mcp?: Record<string, unknown>, id: () => string = () => row?.id ?? ""): SessionOptions {
  const found = state.deps.optionsFor(cwd, row, mode, mcp, files(state, id));
  if ("problem" in found) throw authRequired(found.problem);
  return found;
}

/**
 * After the response that names the session: a client drops updates for a session it does not know
 * yet. The MCP servers' prompts known by then go with it; those of servers still connecting follow
 * in a second update.
 */
export function announceCommands(state: AcpState, sessionId: string, opened: SessionOptions): void {
  const commands = opened.skills?.loaded.commands ?? [];
  const prompts = opened.skills?.prompts;
  const send = (all: readonly Command[]) => notify(state, sessionId, { sessionUpdate: "available_commands_update", availableCommands: all.map(availableCommand) });
  const first = withReinCommands([...commands, ...(prompts?.known() ?? [])]);
  setImmediate(() => {
    send(first);
    void prompts?.started().then((found) => {
      const sent = new Set(first.map((c) => c.name));
      if (state.live.has(sessionId) && found.some((c) => !sent.has(c.name))) send(withReinCommands([...commands, ...found]));
    });
  });
}

export function find(state: AcpState, sessionId: string): Live {
  const entry = state.live.get(sessionId);
  if (!entry) throw sessionNotFound(sessionId);
  return entry;
}

export function modesOf(state: AcpState, entry: Pick<Live, "cwd" | "mode">): acp.SessionModeState {
  return { ...state.deps.modes(entry.cwd), currentModeId: entry.mode };
}

export function optionsOf(state: AcpState, entry: Live): acp.SessionConfigOption[] {
  return configOptions(modesOf(state, entry), state.deps.models(entry.cwd), entry.session.model);
}

/** The session goes on in mode `modeId`: reopened with its rules (and agent), the same conversation, approvals and hooks' state. */
export function switchMode(state: AcpState, entry: Live, modeId: string): void {
  const { availableModes } = state.deps.modes(entry.cwd);
  const choice = modeChoice(modeId, availableModes);
  if (!choice) throw new RpcError(CODES.invalidParams, `Invalid params: no mode "${modeId}": choose one of ${availableModes.map((m) => m.id).join(", ")}`, { modeId });
  if (entry.run) throw invalidRequest("a prompt is running in this session; switch modes when it has finished");
  const id = entry.session.id;
  const row = state.deps.store.getSession(id)!;
  state.deps.store.updateSession(id, { settings: withMode(row.settings, choice) });
  const reopened = Session.open(row, options(state, entry.cwd, row, choice, entry.mcp));
  reopened.continueFrom(entry.session);
  entry.unsubscribe();
  attach(state, reopened, entry.cwd, entry.mcp, modeId);
  notify(state, id, { sessionUpdate: "current_mode_update", currentModeId: modeId });
}

/** Opens a stored session in the mode it was left in (the configured one when it never switched). */
export function reopen(state: AcpState, row: SessionRow, mcp: Record<string, unknown>): Live {
  const modes = state.deps.modes(row.cwd);
  const kept = storedMode(row.settings);
  const choice = kept ? modeChoice(kept, modes.availableModes) : undefined;
  const opened = options(state, row.cwd, row, choice, mcp);
  const entry = attach(state, Session.open(row, opened), row.cwd, mcp, choice ? kept! : modes.currentModeId);
  announceCommands(state, row.id, opened);
  return entry;
}
