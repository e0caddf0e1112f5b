// The OpenAPI 3.1 description of `rein --serve` (docs/server.md), served at GET /openapi.json.
// Hand-written on purpose: it is the contract, and test/unit/server/openapi.test.ts checks that it
// names exactly the routes the app registers.
import { VERSION } from "../version.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (description: string, schema: unknown) => ({ description, content: { "application/json": { schema } } });
const body = (schema: unknown) => ({ required: true, content: { "application/json": { schema } } });
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: "object",
  properties,
  required,
});
const str = { type: "string" };
const int = { type: "integer" };
const idParam = { name: "id", in: "path", required: true, schema: str, description: "a session id" };

/** The error answers every route may give, by code (docs/server.md "Errors"). */
const errors = {
  bad_request: json("bad_request: malformed JSON or a body that fails validation; the message says what was wrong", ref("Error")),
  unauthorized: json("unauthorized: missing or wrong bearer token", ref("Error")),
  forbidden_origin: json("forbidden_origin: the request's Origin is neither the server's own nor in server.origins", ref("Error")),
  not_found: json("not_found: no such session (or ask)", ref("Error")),
  conflict: json("busy (a prompt is already running) or already_answered (the ask was answered before)", ref("Error")),
  too_large: json("too_large: the body is over 1 MiB", ref("Error")),
};
const locked = { "401": errors.unauthorized, "403": errors.forbidden_origin };
const withBody = { ...locked, "400": errors.bad_request, "413": errors.too_large };

/** One event type: the envelope every event has, plus its own fields (docs/events.md). */
function event(type: string, properties: Record<string, unknown>, optional: string[] = []) {
  const required = ["type", "session_id", "seq", ...Object.keys(properties).filter((k) => !optional.includes(k))];
  return obj({ type: { const: type }, session_id: str, seq: int, ...properties }, required);
}

const usage = obj({ input_tokens: int, output_tokens: int, cache_read_input_tokens: int, cache_creation_input_tokens: int });
const reply = { enum: ["once", "always", "reject"] };
const rules = { type: "array", items: { type: "string", minLength: 1 }, description: 'permission rules, e.g. "bash(git *)"' };

const events = {
  session: event("session", { id: str, cwd: str, model: str, version: str }),
  user: event("user", { text: str }),
  text_delta: event("text_delta", { text: str }),
  retry: event("retry", { attempt: int, delay_ms: int, reason: str }),
  assistant: event("assistant", { content: { type: "array", items: { type: "object" } }, stop_reason: { type: ["string", "null"] }, usage, cost_usd: { type: ["number", "null"] }, model: str }, ["cost_usd"]),
  tool_start: event("tool_start", { id: str, name: str, input: {} }),
  tool_output: event("tool_output", { id: str, chunk: str }),
  permission_ask: event(
    "permission_ask",
    { id: str, tool_use_id: str, tool: str, requests: { type: "array", items: ref("PermissionRequest") }, reason: str },
    ["reason"],
  ),
  permission_reply: event("permission_reply", { id: str, reply, message: str }, ["message"]),
  tool_end: event(
    "tool_end",
    { id: str, name: str, is_error: { type: "boolean" }, output: str, truncated: { type: "boolean" }, metadata: { type: "object" } },
    ["metadata"],
  ),
  compaction: event("compaction", {
    summary: str,
    method: { enum: ["prune", "summary", "cut"] },
    tokens_before: int,
    tokens_after: int,
    first_kept: int,
    head: { type: ["string", "null"] },
    pruned: { type: "array", items: int },
    usage,
    cost_usd: { type: ["number", "null"] },
    outside_run: { type: "boolean" },
  }, ["usage", "cost_usd", "outside_run"]),
  error: event("error", { message: str, code: str }, ["code"]),
  result: event(
    "result",
    {
      status: { enum: ["success", "error", "max_turns", "permission", "interrupted"] },
      text: str,
      usage,
      cost_usd: { type: ["number", "null"] },
      turns: int,
      duration_ms: int,
      error: str,
    },
    ["error"],
  ),
};
const eventSchemas = Object.fromEntries(Object.entries(events).map(([type, schema]) => [`${pascal(type)}Event`, schema]));

const schemas = {
  Error: obj({ error: obj({ code: { enum: Object.keys(errorCodes()) }, message: str }) }),
  Session: obj({
    id: str,
    cwd: str,
    model: str,
    title: { type: ["string", "null"] },
    created_at: { type: "integer", description: "milliseconds since the epoch" },
    updated_at: { type: "integer", description: "milliseconds since the epoch" },
    running: { type: "boolean", description: "a prompt is running" },
  }),
  NewSession: {
    ...obj(
      {
        cwd: { type: "string", minLength: 1, description: "defaults to the directory rein was started in" },
        model: { type: "string", minLength: 1 },
        permission_mode: { enum: ["default", "plan", "accept-edits", "auto"] },
        allow: rules,
        deny: rules,
        ask: rules,
      },
      [],
    ),
    additionalProperties: false,
  },
  PermissionRequest: obj(
    {
      permission: { type: "string", description: "bash, edit, read, external_directory, webfetch or a tool's own name" },
      pattern: str,
      always: { type: "array", items: str, description: "the patterns an always answer saves" },
      opaque: { type: "boolean" },
      reason: str,
      fixed: obj({ action: { enum: ["deny", "ask"] }, reason: str }),
    },
    ["permission", "pattern", "always"],
  ),
  PermissionAsk: obj({ id: str, tool: str, requests: { type: "array", items: ref("PermissionRequest") }, reason: str }, ["id", "tool", "requests"]),
  Event: {
    description: "one event of docs/events.md (version 1); new fields may appear within the version",
    oneOf: Object.keys(eventSchemas).map(ref),
    discriminator: {
      propertyName: "type",
      mapping: Object.fromEntries(Object.keys(events).map((type) => [type, `#/components/schemas/${pascal(type)}Event`])),
    },
  },
  ...eventSchemas,
};

const paths = {
  "/health": {
    get: {
      summary: "liveness and version; needs no token",
      security: [],
      responses: { "200": json("the server is up", obj({ ok: { const: true }, version: str })) },
    },
  },
  "/sessions": {
    post: {
      summary: "create a session",
      requestBody: { ...body(ref("NewSession")), required: false },
      responses: { "201": json("created", obj({ id: str })), ...withBody },
    },
    get: {
      summary: "list sessions, most recently updated first",
      responses: { "200": json("the sessions", obj({ sessions: { type: "array", items: ref("Session") } })), ...locked },
    },
  },
  "/sessions/{id}": {
    parameters: [idParam],
    get: {
      summary: "one session with its messages and open permission asks",
      responses: {
        "200": json(
          "the session",
          obj({
            session: ref("Session"),
            messages: { type: "array", items: { type: "object", description: "Messages API message: role and content blocks" } },
            pending_asks: { type: "array", items: ref("PermissionAsk") },
          }),
        ),
        ...locked,
        "404": errors.not_found,
      },
    },
    delete: {
      summary: "delete a session (a running prompt is aborted first)",
      responses: { "200": json("deleted", obj({ deleted: { const: true } })), ...locked, "404": errors.not_found },
    },
  },
  "/sessions/{id}/prompt": {
    parameters: [idParam],
    post: {
      summary: "run a prompt in the background (or wait for it with ?wait=1)",
      parameters: [{ name: "wait", in: "query", required: false, schema: { enum: ["1"] }, description: "1: answer when the run ends" }],
      requestBody: body(obj({ text: { type: "string", minLength: 1 } })),
      responses: {
        "200": json("with ?wait=1: the run's result event", ref("ResultEvent")),
        "202": json("the prompt runs; follow it on /sessions/{id}/events", obj({ accepted: { const: true } })),
        ...withBody,
        "404": errors.not_found,
        "409": errors.conflict,
      },
    },
  },
  "/sessions/{id}/events": {
    parameters: [idParam],
    get: {
      summary: "the session's events as server-sent events: stored ones after the given seq, then live ones",
      parameters: [
        { name: "Last-Event-ID", in: "header", required: false, schema: int, description: "the last seq the client saw" },
        { name: "after", in: "query", required: false, schema: int, description: "as Last-Event-ID, for clients that cannot set it" },
      ],
      responses: {
        "200": {
          description: "an SSE stream: each event as `id: SEQ`, `event: TYPE`, `data: JSON` (an Event); a `: ping` comment every 15 s",
          content: { "text/event-stream": { schema: { type: "string" }, itemSchema: ref("Event") } },
        },
        ...locked,
        "404": errors.not_found,
      },
    },
  },
  "/sessions/{id}/permissions/{askId}": {
    parameters: [idParam, { name: "askId", in: "path", required: true, schema: str, description: "a permission_ask event's id" }],
    post: {
      summary: "answer a permission ask; a rejection's message goes to the model",
      requestBody: body({ ...obj({ reply, message: str }, ["reply"]), additionalProperties: false }),
      responses: { "200": json("answered", obj({ ok: { const: true } })), ...withBody, "404": errors.not_found, "409": errors.conflict },
    },
  },
  "/sessions/{id}/abort": {
    parameters: [idParam],
    post: {
      summary: "abort the running prompt; its partial reply is kept",
      responses: {
        "200": json("false when nothing was running", obj({ aborted: { type: "boolean" } })),
        ...locked,
        "404": errors.not_found,
      },
    },
  },
  "/openapi.json": {
    get: { summary: "this document", responses: { "200": json("OpenAPI 3.1", { type: "object" }), ...locked } },
  },
  "/": {
    get: {
      summary: "the web page: sessions, live events, permission buttons, a prompt box",
      security: [{ bearer: [] }, { queryToken: [] }],
      parameters: [{ name: "token", in: "query", required: false, schema: str, description: "the token, for a browser's address bar" }],
      responses: { "200": { description: "the page", content: { "text/html": { schema: str } } }, ...locked },
    },
  },
};

export const OPENAPI: Record<string, unknown> = {
  openapi: "3.1.0",
  info: { title: "rein --serve", version: VERSION, description: "rein's sessions over HTTP; see docs/server.md and docs/events.md" },
  servers: [{ url: "http://127.0.0.1:4774" }],
  security: [{ bearer: [] }],
  paths,
  components: {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: "REIN_SERVER_TOKEN, server.token, or the generated token file" },
      queryToken: { type: "apiKey", in: "query", name: "token", description: "accepted by GET / only" },
    },
    schemas,
  },
};

function errorCodes(): Record<string, number> {
  return { unauthorized: 401, forbidden_origin: 403, not_found: 404, bad_request: 400, too_large: 413, busy: 409, already_answered: 409 };
}

function pascal(snake: string): string {
  return snake.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());
}
