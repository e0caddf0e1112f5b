// The OpenAPI 3.1 description of `rein --serve` (docs/server.md), served at GET /openapi.json.
// Hand-written on purpose: it is the contract. test/unit/server/openapi.test.ts checks it with an
// independent validator and against the routes the app registers; the route tests check every
// answer against it.
import { VERSION } from "../version.ts";
import { closed, int, ref, SCHEMAS, str } from "./openapi-schemas.ts";

const json = (description: string, schema: unknown) => ({ description, content: { "application/json": { schema } } });
const body = (schema: unknown, required = true) => ({ required, content: { "application/json": { schema } } });
const html = (description: string) => ({ description, content: { "text/html": { schema: str } } });
const nParam = { name: "n", in: "path", required: true, schema: { type: "integer", minimum: 1 }, description: "a checkpoint's number (GET /sessions/{id}/checkpoints)" };
const cwdQuery = { name: "cwd", in: "query", required: false, schema: { type: "string", minLength: 1 }, description: "the folder whose configuration counts (default: where the server was started)" };
const idParam = { name: "id", in: "path", required: true, schema: str, description: "a session id" };

/** The error answers, by status (docs/server.md "Errors"). */
const error = (description: string) => json(description, ref("Error"));
const errors = {
  bad_request: error("bad_request: malformed JSON or a body that fails validation; the message says what was wrong"),
  unauthorized: error("unauthorized: missing or wrong bearer token (or login cookie)"),
  forbidden: error("forbidden_host: a Host the server does not answer to; forbidden_origin: an Origin that is neither the server's own nor in server.origins"),
  not_found: error("not_found: no such session (or ask); a session in the trash is not found"),
  timeout: error("timeout: the body did not arrive in time (30 s)"),
  conflict: error("busy (a prompt is already running, here or in another rein process), already_answered (the ask was answered before) or session_unavailable (the session cannot be opened: its configuration is invalid, or another process holds it)"),
  too_large: error("too_large: the body is over 1 MiB"),
  too_many_requests: {
    ...error("too_many_requests: this client sent wrong tokens and more of its token checks already wait their turn; try again after Retry-After seconds"),
    headers: { "Retry-After": { schema: str, description: "seconds to wait" } },
  },
  internal: error("internal: a bug; the message says what failed"),
};
/** /agents and /models on a server made without a catalog (createApp embedded without one; rein --serve always has it). */
const noCatalog = error("not_found: this server lists no agents or models");
const always = { "403": errors.forbidden, "500": errors.internal };
// A wrong token slows its sender: its later checks wait their turn, and past 16 waiting are refused (429).
const locked = { ...always, "401": errors.unauthorized, "429": errors.too_many_requests };
const withBody = { ...locked, "400": errors.bad_request, "408": errors.timeout, "413": errors.too_large };
const opens = { "404": errors.not_found, "409": errors.conflict };
const redirect = (to: string) => ({ description: `to ${to}`, headers: { Location: { schema: str } } });

const paths = {
  "/health": {
    get: {
      operationId: "getHealth",
      summary: "liveness and version; needs no token",
      security: [],
      responses: { "200": json("the server is up", closed({ ok: { const: true }, version: str })), ...always },
    },
  },
  "/sessions": {
    post: {
      operationId: "createSession",
      summary: "create a session",
      requestBody: body(ref("NewSession"), false),
      responses: { "201": json("created", closed({ id: str })), ...withBody },
    },
    get: {
      operationId: "listSessions",
      summary: "list sessions (not those in the trash), most recently updated first",
      responses: { "200": json("the sessions", closed({ sessions: { type: "array", items: ref("Session") } })), ...locked },
    },
  },
  "/sessions/{id}": {
    parameters: [idParam],
    get: {
      operationId: "getSession",
      summary: "one session with its messages and open permission asks",
      responses: {
        "200": json(
          "the session",
          closed({
            session: ref("Session"),
            trusted: { type: "boolean", description: "the workspace is trusted: an always answer may be saved to its project config" },
            context_window: { type: "integer", description: "the model's context window in tokens" },
            messages: { type: "array", items: { type: "object", description: "Messages API message: role and content blocks" } },
            pending_asks: { type: "array", items: ref("PermissionAsk") },
          }),
        ),
        ...locked,
        ...opens,
      },
    },
    delete: {
      operationId: "deleteSession",
      summary: "move a session to the trash, as rein sessions rm does (rein sessions restore brings it back); a running prompt is aborted first",
      parameters: [{ name: "purge", in: "query", required: false, schema: { enum: ["1"] }, description: "1: delete it for good instead" }],
      responses: { "200": json("deleted", closed({ deleted: { const: true }, purged: { type: "boolean" } })), ...locked, "404": errors.not_found },
    },
  },
  "/sessions/{id}/prompt": {
    parameters: [idParam],
    post: {
      operationId: "promptSession",
      summary: "run a prompt in the background (or wait for it with ?wait=1)",
      parameters: [{ name: "wait", in: "query", required: false, schema: { enum: ["1"] }, description: "1: answer when the run ends" }],
      requestBody: body(
        closed(
          {
            text: { type: "string", minLength: 1 },
            images: {
              type: "array",
              maxItems: 20,
              description: "images sent with the text (a body with images may be up to 32 MiB)",
              items: closed({ media_type: { enum: ["image/png", "image/jpeg", "image/gif", "image/webp"] }, data: { type: "string", minLength: 1, description: "base64, without a data: prefix; at most 5 MB decoded" } }),
            },
          },
          ["images"],
        ),
      ),
      responses: {
        "200": json("with ?wait=1: the run's result event", ref("ResultEvent")),
        "202": json("the prompt runs; follow it on /sessions/{id}/events", closed({ accepted: { const: true } })),
        ...withBody,
        ...opens,
      },
    },
  },
  "/sessions/{id}/events": {
    parameters: [idParam],
    get: {
      operationId: "streamSessionEvents",
      summary: "the session's events as server-sent events: stored ones after the given seq, then live ones",
      parameters: [
        { name: "Last-Event-ID", in: "header", required: false, schema: int, description: "the last seq the client saw" },
        { name: "after", in: "query", required: false, schema: int, description: "as Last-Event-ID, for clients that cannot set it" },
      ],
      responses: {
        "200": {
          description:
            "an SSE stream: each event as `id: SEQ`, `event: NAME`, `data: JSON` (an Event; NAME is its type, but `rein_error` for type `error`); a `: ping` comment every 15 s. A client that leaves what it was sent unread for 60 s is disconnected and resumes with Last-Event-ID.",
          content: { "text/event-stream": { schema: { type: "string" }, "x-rein-event": ref("Event") } },
        },
        "400": errors.bad_request,
        ...locked,
        ...opens,
      },
    },
  },
  "/sessions/{id}/permissions/{askId}": {
    parameters: [idParam, { name: "askId", in: "path", required: true, schema: str, description: "a permission_ask event's id" }],
    post: {
      operationId: "answerPermission",
      summary: "answer a permission ask; a rejection's message goes to the model",
      requestBody: body(
        closed(
          {
            reply: { enum: ["once", "always", "reject"] },
            message: { type: "string", description: "with reject: why, for the model" },
            scope: { enum: ["session", "project", "user"], description: "with always: where the rules are kept (default session; project only in a trusted workspace)" },
          },
          ["message", "scope"],
        ),
      ),
      responses: {
        "200": json("answered", closed({ ok: { const: true }, saved_to: { type: "string", description: "the config file an always answer was saved to" } }, ["saved_to"])),
        ...withBody,
        ...opens,
      },
    },
  },
  "/sessions/{id}/abort": {
    parameters: [idParam],
    post: {
      operationId: "abortSession",
      summary: "abort the running prompt; its partial reply is kept",
      responses: { "200": json("false when nothing was running", closed({ aborted: { type: "boolean" } })), ...locked, "404": errors.not_found },
    },
  },
  "/sessions/{id}/mcp": {
    parameters: [idParam],
    get: {
      operationId: "listSessionMcpServers",
      summary: "the session's MCP servers once those still connecting are done (at most the first turn's wait): state, tools, prompts, last error, as rein mcp list --json (docs/mcp.md)",
      responses: { "200": json("the servers", closed({ servers: { type: "array", items: ref("McpServer") } })), ...locked, ...opens },
    },
  },
  "/sessions/{id}/checkpoints": {
    parameters: [idParam],
    get: {
      operationId: "listCheckpoints",
      summary: "the session's checkpoints, oldest first, as rein checkpoints list --json (docs/undo.md)",
      responses: { "200": json("the checkpoints", closed({ checkpoints: { type: "array", items: { type: "object" } } })), ...locked, "404": errors.not_found },
    },
  },
  "/sessions/{id}/undo": {
    parameters: [idParam],
    post: {
      operationId: "undoTurns",
      summary: "undo the last turns' code, conversation or both, as rein undo --json does; 409 when there is nothing to undo or it would overwrite a later change",
      requestBody: body(
        closed(
          {
            turns: { type: "integer", minimum: 1, description: "how many turns (default 1)" },
            part: { enum: ["both", "code", "conversation"], description: "default both" },
            force: { type: "boolean", description: "overwrite files changed after the turn" },
          },
          ["turns", "part", "force"],
        ),
        false,
      ),
      responses: { "200": json("what was undone", { type: "object" }), ...withBody, "404": errors.not_found, "409": json("refused, or nothing to undo", { type: "object" }) },
    },
  },
  "/sessions/{id}/redo": {
    parameters: [idParam],
    post: {
      operationId: "redoTurns",
      summary: "reverse the last undo, as rein redo --json does",
      requestBody: body(closed({ force: { type: "boolean" } }, ["force"]), false),
      responses: { "200": json("what was redone", { type: "object" }), ...withBody, "404": errors.not_found, "409": json("refused, or nothing to redo", { type: "object" }) },
    },
  },
  "/sessions/{id}/checkpoints/{n}/diff": {
    parameters: [idParam, nParam],
    get: {
      operationId: "getCheckpointDiff",
      summary: "what checkpoint n's turn changed, as a patch from the workspace before it, as rein checkpoints diff N (docs/undo.md)",
      responses: {
        "200": json("the patch (empty when the turn changed no file)", closed({ n: int, patch: str })),
        "400": errors.bad_request,
        ...locked,
        "404": error("not_found: no such session, or no checkpoint n in it"),
        "409": error("busy: the checkpoint is incomplete (its turn did not finish); session_unavailable: the session cannot be opened"),
      },
    },
  },
  "/sessions/{id}/checkpoints/{n}/restore": {
    parameters: [idParam, nParam],
    post: {
      operationId: "restoreCheckpoint",
      summary: "put the workspace back as it was before checkpoint n (it and every later one undone; the conversation is kept), as rein checkpoints restore N --json does",
      requestBody: body(closed({ force: { type: "boolean", description: "overwrite files changed after the turn" } }, ["force"]), false),
      responses: {
        "200": json("what was restored", { type: "object", properties: { type: { const: "done" }, checkpoints: { type: "array", items: int }, files: { type: "array", items: str } }, required: ["type", "checkpoints", "files"] }),
        ...withBody,
        "404": error("not_found: no such session, or no checkpoint n in it"),
        "409": json("refused (a later change would be overwritten: files names them), nothing to restore, or busy", { type: "object" }),
      },
    },
  },
  "/sessions/{id}/fork": {
    parameters: [idParam],
    post: {
      operationId: "forkSession",
      summary: "a new session from the first `at` messages of this one (default all), as rein sessions fork ID --at N --json does; a cut that would end on tool calls without their results is moved back",
      requestBody: body(closed({ at: { type: "integer", minimum: 0, description: "how many messages to keep (default all)" } }, ["at"]), false),
      responses: {
        "201": json(
          "the fork",
          closed({ id: str, from: str, messages: { type: "integer", description: "messages the fork holds" }, requested: { type: "integer", description: "messages asked for (at most the session's)" } }),
        ),
        ...withBody,
        "404": errors.not_found,
      },
    },
  },
  "/agents": {
    get: {
      operationId: "listAgents",
      summary: "the agents of a folder's configuration (built-in and agent files), as the terminal's /agents lists them: primary ones to create a session with (its agent), subagents for the task tool",
      parameters: [cwdQuery],
      responses: {
        "200": json(
          "the agents",
          closed({
            agents: {
              type: "array",
              items: closed({ name: str, mode: { enum: ["primary", "subagent", "all"] }, description: str, source: { type: "string", description: "built-in, or the agent file" }, default: { type: "boolean", description: "the one a new session runs as" } }),
            },
          }),
        ),
        "400": errors.bad_request,
        ...locked,
        "409": error("session_unavailable: the folder's configuration is invalid"),
        "404": noCatalog,
      },
    },
  },
  "/models": {
    get: {
      operationId: "listModels",
      summary: "the model in use and the providers a folder's configuration can reach, with their models, as rein models lists them (docs/providers.md)",
      parameters: [cwdQuery],
      responses: {
        "200": json("the providers", closed({ model: str, providers: { type: "array", items: ref("Provider") } })),
        "400": errors.bad_request,
        ...locked,
        "409": error("session_unavailable: the providers configuration is invalid"),
        "404": noCatalog,
      },
    },
  },
  "/openapi.json": {
    get: { operationId: "getOpenApi", summary: "this document", responses: { "200": json("OpenAPI 3.1", { type: "object" }), ...locked } },
  },
  "/": {
    get: {
      operationId: "getPage",
      summary: "the web page: sessions, live events, permission answers, a prompt box",
      responses: { "200": html("the page"), "303": redirect("/login, for a browser that is not logged in"), ...always },
    },
  },
  "/login": {
    get: { operationId: "getLoginForm", summary: "the login form of the web page", security: [], responses: { "200": html("the form"), "303": redirect("/, when already logged in"), ...always, "429": errors.too_many_requests } },
    post: {
      operationId: "login",
      summary: "log a browser in: checks the token and sets the login cookie (HttpOnly, SameSite=Strict)",
      security: [],
      requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: closed({ token: str }) } } },
      description: "Wrong tokens slow their sender: after three, each next check from that address waits its turn (half a second, doubling up to 30 s) before the token is compared.",
      responses: { "303": redirect("/, with the cookie set"), "401": html("the form again: not the token"), ...always, "408": errors.timeout, "413": errors.too_large, "429": errors.too_many_requests },
    },
  },
  "/logout": {
    post: { operationId: "logout", summary: "forget this browser's login", responses: { "303": redirect("/login"), ...locked } },
  },
};

export const OPENAPI: Record<string, unknown> = {
  openapi: "3.1.0",
  info: {
    title: "rein --serve",
    version: VERSION,
    description:
      "rein's sessions over HTTP; see docs/server.md and docs/events.md. A method a path does not have is answered 405 method_not_allowed, with an Allow header naming the methods it has (components/responses/MethodNotAllowed); HEAD works wherever GET does.",
  },
  // Relative: a client talks to whatever address it fetched the document from.
  servers: [{ url: "/" }],
  security: [{ bearer: [] }, { cookie: [] }],
  paths,
  components: {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: "REIN_SERVER_TOKEN, server.token, or the generated token file" },
      cookie: { type: "apiKey", in: "cookie", name: "rein_login", description: "set by POST /login, for the web page" },
    },
    responses: {
      MethodNotAllowed: {
        description: "method_not_allowed: the path exists but not with this method (on every path, for the methods it does not list)",
        headers: { Allow: { schema: str, description: 'the methods the path has, e.g. "GET, HEAD"' } },
        content: { "application/json": { schema: ref("Error") } },
      },
    },
    schemas: SCHEMAS,
  },
};
