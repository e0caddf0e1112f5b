// `rein acp`: an Agent Client Protocol v1 agent over a stream (stdio in production). Each ACP
// session is a rein Session (the same object the terminal, print mode and the server drive); its
// events become `session/update`s and its permission asks `session/request_permission`s.
import * as acp from "@agentclientprotocol/sdk";
import { Session, type ResultEvent, type SessionOptions } from "../session/session.ts";
import type { SessionRow, Store } from "../session/store.ts";
import type { FileAccess } from "../sdk.ts";
import { clientFiles } from "./client-files.ts";
import { mcpEntries } from "./mcp-servers.ts";
import { modeChoice, type ModeChoice } from "./modes.ts";
import { askPermission } from "./permission.ts";
import { promptOf } from "./prompt.ts";
import { replay } from "./replay.ts";
import { translator } from "./updates.ts";

export type AcpDeps = {
  store: Store;
  version: string;
  /** What a session in `cwd` runs on, or the sentence saying why it cannot run (no key for its model). */
  optionsFor: (cwd: string, row?: SessionRow, mode?: ModeChoice, mcpServers?: Record<string, unknown>, fileAccess?: FileAccess) => SessionOptions | { problem: string };
  /** the modes a session in `cwd` can switch between, and the one it starts in */
  modes: (cwd: string) => acp.SessionModeState;
  warn: (message: string) => void;
};

type Live = { session: Session; cwd: string; mcp: Record<string, unknown>; run?: Promise<ResultEvent>; stop: string | null; unsubscribe: () => void };

export const AUTH_METHODS: acp.AuthMethod[] = [
  {
    id: "environment",
    name: "API key in the environment",
    description: "rein reads the provider's key from the environment it starts in (ANTHROPIC_API_KEY, or the key your providers config names) or apiKey in its config file; set it and restart the agent.",
  },
];

/** Serves ACP on `stream` until the client closes it; then aborts running prompts (kept, resumable) and settles. */
export async function serveAcp(deps: AcpDeps, stream: acp.Stream): Promise<void> {
  const live = new Map<string, Live>();
  let client: acp.AgentContext | undefined;
  let offered: acp.ClientCapabilities | undefined;
  const notify = (sessionId: string, update: acp.SessionUpdate) => {
    void client?.notify(acp.methods.client.session.update, { sessionId, update }).catch(() => {});
  };

  const attach = (session: Session, cwd: string, mcp: Record<string, unknown>): Live => {
    const entry: Live = { session, cwd, mcp, stop: null, unsubscribe: () => {} };
    const translate = translator(cwd, () => session.contextWindow);
    const inputs = new Map<string, unknown>();
    entry.unsubscribe = session.subscribe((event) => {
      if (event.type === "assistant" && !event.parent_tool_use_id) entry.stop = event.stop_reason;
      if (event.type === "tool_start") inputs.set(event.id, event.input);
      // A subagent's own text and calls stay inside its task call; its permission asks still reach the client.
      if (!event.parent_tool_use_id) for (const update of translate(event)) notify(session.id, update);
      if (event.type === "permission_ask" && client) void askPermission(client, session, event, inputs.get(event.tool_use_id), cwd);
      if (event.type === "tool_end") inputs.delete(event.id);
    });
    live.set(session.id, entry);
    return entry;
  };

  // The editor's buffers, for the session the editor names (its id is known once the session is created).
  const files = (sessionId: () => string) => (client ? clientFiles(client, offered, sessionId) : undefined);
  const options = (cwd: string, row?: SessionRow, mode?: ModeChoice, mcp?: Record<string, unknown>, id: () => string = () => row?.id ?? ""): SessionOptions => {
    const found = deps.optionsFor(cwd, row, mode, mcp, files(id));
    if ("problem" in found) throw acp.RequestError.authRequired(undefined, found.problem);
    return found;
  };

  // After the response that names the session: a client drops updates for a session it does not know yet.
  const announceCommands = (sessionId: string, opened: SessionOptions) => {
    const commands = opened.skills?.loaded.commands ?? [];
    if (commands.length === 0) return;
    const availableCommands = commands.map((c) => ({ name: c.name, description: c.description, ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}) }));
    setImmediate(() => notify(sessionId, { sessionUpdate: "available_commands_update", availableCommands }));
  };

  const find = (sessionId: string): Live => {
    const entry = live.get(sessionId);
    if (!entry) throw acp.RequestError.sessionNotFound(sessionId);
    return entry;
  };

  const app = acp
    .agent({ name: "rein" })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      offered = params.clientCapabilities;
      return initialized(deps.version);
    })
    .onRequest(acp.methods.agent.authenticate, ({ params }) => {
      const found = deps.optionsFor(process.cwd());
      if ("problem" in found) throw acp.RequestError.authRequired(undefined, `${found.problem} (${params.methodId}: set the key and restart the agent)`);
      return {};
    })
    .onRequest(acp.methods.agent.session.new, ({ params }) => {
      const mcp = mcpEntries(params.mcpServers);
      let id = "";
      const opened = options(params.cwd, undefined, undefined, mcp, () => id);
      const session = Session.create(params.cwd, opened);
      id = session.id;
      attach(session, params.cwd, mcp);
      announceCommands(session.id, opened);
      return { sessionId: session.id, modes: deps.modes(params.cwd) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params }) => {
      const row = deps.store.getSession(params.sessionId);
      if (!row || row.deleted_at != null) throw acp.RequestError.sessionNotFound(params.sessionId);
      const mcp = mcpEntries(params.mcpServers);
      let entry = live.get(row.id);
      if (!entry) {
        const opened = options(row.cwd, row, undefined, mcp);
        entry = attach(Session.open(row, opened), row.cwd, mcp);
        announceCommands(row.id, opened);
      }
      for (const update of replay(entry.session.history(), row.cwd)) notify(row.id, update);
      return { modes: deps.modes(row.cwd) };
    })
    .onRequest(acp.methods.agent.session.list, ({ params }) => ({
      sessions: deps.store.listSessions({ ...(params.cwd ? { cwd: params.cwd } : {}), limit: 200 }).map((row) => ({
        sessionId: row.id,
        cwd: row.cwd,
        title: row.title,
        updatedAt: new Date(row.updated_at).toISOString(),
      })),
    }))
    .onRequest(acp.methods.agent.session.prompt, async ({ params }) => {
      const entry = find(params.sessionId);
      if (entry.run) throw acp.RequestError.invalidRequest(undefined, `a prompt is already running in session ${params.sessionId}; cancel it or wait for its stopReason`);
      const { text, images } = promptOf(params.prompt);
      entry.stop = null;
      entry.run = entry.session.prompt(text, images);
      try {
        const result = await entry.run;
        return { stopReason: stopReason(result, entry.stop) };
      } finally {
        entry.run = undefined;
      }
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      const entry = find(params.sessionId);
      const { availableModes } = deps.modes(entry.cwd);
      const choice = modeChoice(params.modeId, availableModes);
      if (!choice) throw acp.RequestError.invalidParams({ modeId: params.modeId }, `no mode "${params.modeId}": choose one of ${availableModes.map((m) => m.id).join(", ")}`);
      if (entry.run) throw acp.RequestError.invalidRequest(undefined, "a prompt is running in this session; switch modes when it has finished");
      const row = deps.store.getSession(params.sessionId)!;
      // The session is opened again with the mode's rules (and agent); its conversation is the stored one.
      const reopened = Session.open(row, options(entry.cwd, row, choice, entry.mcp));
      entry.unsubscribe();
      attach(reopened, entry.cwd, entry.mcp);
      notify(params.sessionId, { sessionUpdate: "current_mode_update", currentModeId: params.modeId });
      return {};
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      live.get(params.sessionId)?.session.abort();
    });

  const connection = app.connect(stream);
  client = connection.client;
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
    protocolVersion: acp.PROTOCOL_VERSION,
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
      throw acp.RequestError.internalError(undefined, result.error ?? "the run failed");
    default:
      if (lastStop === "max_tokens") return "max_tokens";
      if (lastStop === "refusal") return "refusal";
      return "end_turn";
  }
}
