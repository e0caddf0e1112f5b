// `rein acp`: an Agent Client Protocol v1 agent over a stream (stdio in production). Each ACP
// session is a rein Session (the same object the terminal, print mode and the server drive); its
// events become `session/update`s and its permission asks `session/request_permission`s.
import type * as acp from "@agentclientprotocol/sdk";
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import * as v from "valibot";
import { Session, type ResultEvent, type SessionOptions } from "../session/session.ts";
import type { SessionRow, Store } from "../session/store.ts";
import type { FileAccess } from "../sdk.ts";
import { clientFiles } from "./client-files.ts";
import { badValue, configOptions, MODE_OPTION, MODEL_OPTION, type ModelOption } from "./config-options.ts";
import { changesFiles, fileChange, pathOf, readBefore, type Before } from "./file-change.ts";
import { mcpEntries } from "./mcp-servers.ts";
import { modeChoice, storedMode, withMode, type ModeChoice } from "./modes.ts";
import { askPermission } from "./permission.ts";
import { promptOf } from "./prompt.ts";
import { reinCommand, runReinCommand, withReinCommands, type Command } from "./rein-commands.ts";
import { replay, replayNotes } from "./replay.ts";
import { CODES, rpcConnection, RpcError, type Peer } from "./rpc.ts";
import { translator } from "./updates.ts";
import { PARAMS, paramsOf } from "./wire.ts";

export const PROTOCOL_VERSION = 1;

/** `cwd` must name a folder by its absolute path (ACP requires it absolute); else invalid params naming it. */
function checkCwd(cwd: string): void {
  const bad = (why: string) => new RpcError(CODES.invalidParams, `Invalid params: cwd: ${why}`, { cwd });
  if (!isAbsolute(cwd)) throw bad(`"${cwd}" is not an absolute path; send the workspace folder's absolute path`);
  let folder = false;
  try {
    folder = statSync(cwd).isDirectory();
  } catch {
    throw bad(`${cwd} does not exist; send an existing folder`);
  }
  if (!folder) throw bad(`${cwd} is not a folder; send the workspace folder`);
}

const authRequired = (message: string) => new RpcError(CODES.authRequired, `Authentication required: ${message}`);
const sessionNotFound = (sessionId: string) => new RpcError(CODES.notFound, "Resource not found", { sessionId });
const invalidRequest = (message: string) => new RpcError(CODES.invalidRequest, `Invalid request: ${message}`);
const availableCommand = (c: Command): acp.AvailableCommand => ({ name: c.name, description: c.description, ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}) });

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

type Live = {
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

export const AUTH_METHODS: acp.AuthMethod[] = [
  {
    id: "environment",
    name: "API key in the environment",
    description: "rein reads the provider's key from the environment it starts in (ANTHROPIC_API_KEY, or the key your providers config names) or apiKey in its config file; set it and restart the agent.",
  },
];

/** Serves ACP on the lines of `input` until the client closes it; then aborts running prompts (kept, resumable) and settles. */
export async function serveAcp(deps: AcpDeps, input: ReadableStream<Uint8Array>, write: (line: string) => void): Promise<void> {
  const live = new Map<string, Live>();
  let client: Peer | undefined;
  let offered: acp.ClientCapabilities | undefined;
  const notify = (sessionId: string, update: acp.SessionUpdate) => {
    client?.notify("session/update", { sessionId, update } satisfies acp.SessionNotification);
  };

  const attach = (session: Session, cwd: string, mcp: Record<string, unknown>, mode: string): Live => {
    const entry: Live = { session, cwd, mode, mcp, stop: null, unsubscribe: () => {}, sent: Promise.resolve() };
    const calls = new Map<string, { name: string; input: unknown; before?: Before }>();
    const translate = translator(cwd, () => session.contextWindow, Date.now, (id) => calls.get(id)?.before);
    const access = files(() => session.id);
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
        if (!event.parent_tool_use_id) for (const update of translate(event)) notify(session.id, update);
        if (event.type === "permission_ask" && client) {
          const call = calls.get(event.tool_use_id);
          void askPermission(client, session, event, call?.input, cwd, call && fileChange(call.name, call.input, call.before, cwd));
        }
        if (event.type === "tool_end") calls.delete(event.id);
      };
      if (!(reading instanceof Promise) && waiting === 0) return send(reading);
      waiting++;
      const read = reading;
      entry.sent = entry.sent
        .then(async () => send(await read))
        .catch((error: unknown) => deps.warn(`rein acp: an update could not be sent: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => waiting--);
    });
    live.set(session.id, entry);
    return entry;
  };

  // The editor's buffers, for the session the editor names (its id is known once the session is created).
  const files = (sessionId: () => string) => (client ? clientFiles(client, offered, sessionId) : undefined);
  const options = (cwd: string, row?: SessionRow, mode?: ModeChoice, mcp?: Record<string, unknown>, id: () => string = () => row?.id ?? ""): SessionOptions => {
    const found = deps.optionsFor(cwd, row, mode, mcp, files(id));
    if ("problem" in found) throw authRequired(found.problem);
    return found;
  };

  // After the response that names the session: a client drops updates for a session it does not know yet.
  // The MCP servers' prompts known by then go with it; those of servers still connecting follow in a second update.
  const announceCommands = (sessionId: string, opened: SessionOptions) => {
    const commands = opened.skills?.loaded.commands ?? [];
    const prompts = opened.skills?.prompts;
    const send = (all: readonly Command[]) => notify(sessionId, { sessionUpdate: "available_commands_update", availableCommands: all.map(availableCommand) });
    const first = withReinCommands([...commands, ...(prompts?.known() ?? [])]);
    setImmediate(() => {
      send(first);
      void prompts?.started().then((found) => {
        const sent = new Set(first.map((c) => c.name));
        if (live.has(sessionId) && found.some((c) => !sent.has(c.name))) send(withReinCommands([...commands, ...found]));
      });
    });
  };

  const find = (sessionId: string): Live => {
    const entry = live.get(sessionId);
    if (!entry) throw sessionNotFound(sessionId);
    return entry;
  };

  const modesOf = (entry: Pick<Live, "cwd" | "mode">): acp.SessionModeState => ({ ...deps.modes(entry.cwd), currentModeId: entry.mode });
  const optionsOf = (entry: Live): acp.SessionConfigOption[] => configOptions(modesOf(entry), deps.models(entry.cwd), entry.session.model);

  /** The session goes on in mode `modeId`: reopened with its rules (and agent), the same conversation, approvals and hooks' state. */
  const switchMode = (entry: Live, modeId: string): void => {
    const { availableModes } = deps.modes(entry.cwd);
    const choice = modeChoice(modeId, availableModes);
    if (!choice) throw new RpcError(CODES.invalidParams, `Invalid params: no mode "${modeId}": choose one of ${availableModes.map((m) => m.id).join(", ")}`, { modeId });
    if (entry.run) throw invalidRequest("a prompt is running in this session; switch modes when it has finished");
    const id = entry.session.id;
    const row = deps.store.getSession(id)!;
    deps.store.updateSession(id, { settings: withMode(row.settings, choice) });
    const reopened = Session.open(row, options(entry.cwd, row, choice, entry.mcp));
    reopened.continueFrom(entry.session);
    entry.unsubscribe();
    attach(reopened, entry.cwd, entry.mcp, modeId);
    notify(id, { sessionUpdate: "current_mode_update", currentModeId: modeId });
  };

  /** Opens a stored session in the mode it was left in (the configured one when it never switched). */
  const reopen = (row: SessionRow, mcp: Record<string, unknown>): Live => {
    const modes = deps.modes(row.cwd);
    const kept = storedMode(row.settings);
    const choice = kept ? modeChoice(kept, modes.availableModes) : undefined;
    const opened = options(row.cwd, row, choice, mcp);
    const entry = attach(Session.open(row, opened), row.cwd, mcp, choice ? kept! : modes.currentModeId);
    announceCommands(row.id, opened);
    return entry;
  };

  const requests: Record<string, (params: unknown) => unknown> = {
    initialize: (raw) => {
      offered = paramsOf(PARAMS.initialize, raw).clientCapabilities;
      return initialized(deps.version);
    },
    authenticate: (raw) => {
      const { methodId } = paramsOf(PARAMS.authenticate, raw);
      const found = deps.optionsFor(process.cwd());
      if ("problem" in found) throw authRequired(`${found.problem} (${methodId}: set the key and restart the agent)`);
      return {};
    },
    "session/new": (raw): acp.NewSessionResponse => {
      const params = paramsOf(PARAMS.newSession, raw);
      checkCwd(params.cwd);
      const mcp = mcpEntries(params.mcpServers);
      let id = "";
      const opened = options(params.cwd, undefined, undefined, mcp, () => id);
      const session = Session.create(params.cwd, opened);
      id = session.id;
      const entry = attach(session, params.cwd, mcp, deps.modes(params.cwd).currentModeId);
      announceCommands(session.id, opened);
      return { sessionId: session.id, modes: modesOf(entry), configOptions: optionsOf(entry) };
    },
    "session/load": (raw): acp.LoadSessionResponse => {
      const params = paramsOf(PARAMS.loadSession, raw);
      const row = deps.store.getSession(params.sessionId);
      if (!row || row.deleted_at != null) throw sessionNotFound(params.sessionId);
      const mcp = mcpEntries(params.mcpServers);
      const entry = live.get(row.id) ?? reopen(row, mcp);
      // The whole stored history (not the compacted view the model gets), with the prompts as typed and the plans.
      const notes = replayNotes(deps.store.events(row.id));
      for (const update of replay(deps.store.messages(row.id), row.cwd, notes)) notify(row.id, update);
      return { modes: modesOf(entry), configOptions: optionsOf(entry) };
    },
    "session/list": (raw): acp.ListSessionsResponse => {
      const { cwd } = paramsOf(PARAMS.listSessions, raw);
      return {
        sessions: deps.store.listSessions({ ...(cwd ? { cwd } : {}), limit: 200 }).map((row) => ({
          sessionId: row.id,
          cwd: row.cwd,
          title: row.title,
          updatedAt: new Date(row.updated_at).toISOString(),
        })),
      };
    },
    "session/prompt": async (raw): Promise<acp.PromptResponse> => {
      const params = paramsOf(PARAMS.prompt, raw);
      const entry = find(params.sessionId);
      if (entry.run) throw invalidRequest(`a prompt is already running in session ${params.sessionId}; cancel it or wait for its stopReason`);
      const { text, images } = promptOf(params.prompt);
      entry.stop = null;
      // rein's own commands (/compact, /undo, ...) are run by rein, as in the terminal, not sent to the model as text.
      const command = reinCommand(text, images.length);
      const say = (said: string) => notify(entry.session.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: said }, messageId: crypto.randomUUID() });
      const modelChanged = () => notify(entry.session.id, { sessionUpdate: "config_option_update", configOptions: optionsOf(entry) });
      entry.run = command ? runReinCommand({ session: entry.session, store: deps.store, say, modelChanged }, command.name, command.rest) : entry.session.prompt(text, images);
      try {
        const result = await entry.run;
        await live.get(params.sessionId)?.sent; // the turn's last updates go before its answer
        return { stopReason: stopReason(result, entry.stop) };
      } finally {
        entry.run = undefined;
      }
    },
    "session/set_mode": (raw): acp.SetSessionModeResponse => {
      const params = paramsOf(PARAMS.setMode, raw);
      switchMode(find(params.sessionId), params.modeId);
      const entry = find(params.sessionId);
      notify(params.sessionId, { sessionUpdate: "config_option_update", configOptions: optionsOf(entry) });
      return {};
    },
    "session/set_config_option": (raw): acp.SetSessionConfigOptionResponse => {
      const params = paramsOf(PARAMS.setConfigOption, raw);
      const entry = find(params.sessionId);
      const bad = badValue(optionsOf(entry), params.configId, params.value);
      if (bad) throw new RpcError(CODES.invalidParams, `Invalid params: ${bad}`, { configId: params.configId, value: params.value });
      const value = params.value as string;
      if (params.configId === MODE_OPTION) switchMode(entry, value);
      if (params.configId === MODEL_OPTION) {
        if (entry.run) throw invalidRequest("a prompt is running in this session; change the model when it has finished");
        try {
          entry.session.setModel(value);
        } catch (error) {
          throw new RpcError(CODES.invalidParams, `Invalid params: model ${value}: ${error instanceof Error ? error.message : String(error)}`, { configId: params.configId, value });
        }
      }
      return { configOptions: optionsOf(find(params.sessionId)) };
    },
  };
  const notifications: Record<string, (params: unknown) => void> = {
    "session/cancel": (raw) => {
      const parsed = v.safeParse(PARAMS.cancel, raw);
      if (parsed.success) live.get(parsed.output.sessionId)?.session.abort();
    },
  };

  const connection = rpcConnection(input, write, { requests, notifications });
  client = connection.peer;
  await connection.closed;
  // The client went away: stop what runs (the session keeps what was said so far) and wait for it to persist.
  const runs = [...live.values()].map((entry) => {
    entry.session.abort();
    entry.unsubscribe();
    return entry.run?.catch(() => undefined);
  });
  await Promise.all(runs);
  await Promise.all([...live.values()].map((entry) => entry.session.end("other").catch(() => undefined))); // SessionEnd hooks
}

function initialized(version: string): acp.InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { list: {} },
    },
    authMethods: AUTH_METHODS,
    agentInfo: { name: "rein", title: "rein", version },
  };
}

/** How a run ended, in ACP's words; a run that failed is an error response, not a stop reason. */
export function stopReason(result: ResultEvent, lastStop: string | null): acp.StopReason {
  switch (result.status) {
    case "interrupted":
      return "cancelled";
    case "max_turns":
      return "max_turn_requests";
    case "error":
      throw new RpcError(CODES.internal, `Internal error: ${result.error ?? "the run failed"}`);
    default:
      if (lastStop === "max_tokens") return "max_tokens";
      if (lastStop === "refusal") return "refusal";
      return "end_turn";
  }
}
