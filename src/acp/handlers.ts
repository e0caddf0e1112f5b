// The ACP agent methods rein answers, one function each, on the state of live.ts: initialize,
// authenticate, session/new, load, list, prompt, set_mode and set_config_option.
import type * as acp from "@agentclientprotocol/sdk";
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { Session, type ResultEvent } from "../session/session.ts";
import { badValue, MODE_OPTION, MODEL_OPTION } from "./config-options.ts";
import { announceCommands, attach, authRequired, find, invalidRequest, modesOf, notify, options, optionsOf, reopen, sessionNotFound, switchMode, type AcpState } from "./live.ts";
import { mcpEntries } from "./mcp-servers.ts";
import { promptOf } from "./prompt.ts";
import { reinCommand, runReinCommand } from "./rein-commands.ts";
import { replay, replayNotes } from "./replay.ts";
import { CODES, RpcError } from "./rpc.ts";
import { PARAMS, paramsOf } from "./wire.ts";

export const PROTOCOL_VERSION = 1;

export const AUTH_METHODS: acp.AuthMethod[] = [
  {
    id: "environment",
    name: "API key in the environment",
    description: "rein reads the provider's key from the environment it starts in (ANTHROPIC_API_KEY, or the key your providers config names) or apiKey in its config file; set it and restart the agent.",
  },
];

/** The agent methods, bound to the state they work on. */
export function requestHandlers(state: AcpState): Record<string, (params: unknown) => unknown> {
  return {
    initialize: (raw) => {
      state.offered = paramsOf(PARAMS.initialize, raw).clientCapabilities;
      return initialized(state.deps.version);
    },
    authenticate: (raw) => {
      const { methodId } = paramsOf(PARAMS.authenticate, raw);
      const found = state.deps.optionsFor(process.cwd());
      if ("problem" in found) throw authRequired(`${found.problem} (${methodId}: set the key and restart the agent)`);
      return {};
    },
    "session/new": (raw) => newSession(state, raw),
    "session/load": (raw) => loadSession(state, raw),
    "session/list": (raw) => listSessions(state, raw),
    "session/prompt": (raw) => prompt(state, raw),
    "session/set_mode": (raw): acp.SetSessionModeResponse => {
      const params = paramsOf(PARAMS.setMode, raw);
      switchMode(state, find(state, params.sessionId), params.modeId);
      notify(state, params.sessionId, { sessionUpdate: "config_option_update", configOptions: optionsOf(state, find(state, params.sessionId)) });
      return {};
    },
    "session/set_config_option": (raw) => setConfigOption(state, raw),
  };
}

function newSession(state: AcpState, raw: unknown): acp.NewSessionResponse {
  const params = paramsOf(PARAMS.newSession, raw);
  checkCwd(params.cwd);
  const mcp = mcpEntries(params.mcpServers);
  let id = "";
  const opened = options(state, params.cwd, undefined, undefined, mcp, () => id);
  const session = Session.create(params.cwd, opened);
  id = session.id;
  const entry = attach(state, session, params.cwd, mcp, state.deps.modes(params.cwd).currentModeId);
  announceCommands(state, session.id, opened);
  return { sessionId: session.id, modes: modesOf(state, entry), configOptions: optionsOf(state, entry) };
}

function loadSession(state: AcpState, raw: unknown): acp.LoadSessionResponse {
  const params = paramsOf(PARAMS.loadSession, raw);
  const { store } = state.deps;
  const row = store.getSession(params.sessionId);
  if (!row || row.deleted_at != null) throw sessionNotFound(params.sessionId);
  const mcp = mcpEntries(params.mcpServers);
  const entry = state.live.get(row.id) ?? reopen(state, row, mcp);
  // The whole stored history (not the compacted view the model gets), with the prompts as typed and the plans.
  const notes = replayNotes(store.events(row.id));
  for (const update of replay(store.messages(row.id), row.cwd, notes)) notify(state, row.id, update);
  return { modes: modesOf(state, entry), configOptions: optionsOf(state, entry) };
}

function listSessions(state: AcpState, raw: unknown): acp.ListSessionsResponse {
  const { cwd } = paramsOf(PARAMS.listSessions, raw);
  return {
    sessions: state.deps.store.listSessions({ ...(cwd ? { cwd } : {}), limit: 200 }).map((row) => ({
      sessionId: row.id,
      cwd: row.cwd,
      title: row.title,
      updatedAt: new Date(row.updated_at).toISOString(),
    })),
  };
}

async function prompt(state: AcpState, raw: unknown): Promise<acp.PromptResponse> {
  const params = paramsOf(PARAMS.prompt, raw);
  const entry = find(state, params.sessionId);
  if (entry.run) throw invalidRequest(`a prompt is already running in session ${params.sessionId}; cancel it or wait for its stopReason`);
  const { text, images } = promptOf(params.prompt);
  entry.stop = null;
  // rein's own commands (/compact, /undo, ...) are run by rein, as in the terminal, not sent to the model as text.
  const command = reinCommand(text, images.length);
  const say = (said: string) => notify(state, entry.session.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: said }, messageId: crypto.randomUUID() });
  const modelChanged = () => notify(state, entry.session.id, { sessionUpdate: "config_option_update", configOptions: optionsOf(state, entry) });
  entry.run = command ? runReinCommand({ session: entry.session, store: state.deps.store, say, modelChanged }, command.name, command.rest) : entry.session.prompt(text, images);
  try {
    const result = await entry.run;
    await state.live.get(params.sessionId)?.sent; // the turn's last updates go before its answer
    return { stopReason: stopReason(result, entry.stop) };
  } finally {
    entry.run = undefined;
  }
}

function setConfigOption(state: AcpState, raw: unknown): acp.SetSessionConfigOptionResponse {
  const params = paramsOf(PARAMS.setConfigOption, raw);
  const entry = find(state, params.sessionId);
  const bad = badValue(optionsOf(state, entry), params.configId, params.value);
  if (bad) throw new RpcError(CODES.invalidParams, `Invalid params: ${bad}`, { configId: params.configId, value: params.value });
  const value = params.value as string;
  if (params.configId === MODE_OPTION) switchMode(state, entry, value);
  if (params.configId === MODEL_OPTION) {
    if (entry.run) throw invalidRequest("a prompt is running in this session; change the model when it has finished");
    try {
      entry.session.setModel(value);
    } catch (error) {
      throw new RpcError(CODES.invalidParams, `Invalid params: model ${value}: ${error instanceof Error ? error.message : String(error)}`, { configId: params.configId, value });
    }
  }
  return { configOptions: optionsOf(state, find(state, params.sessionId)) };
}

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
