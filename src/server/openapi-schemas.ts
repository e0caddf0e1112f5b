// The schemas of the OpenAPI document (openapi.ts): the answers' shapes and every event of
// docs/events.md. Answers are closed (no key the server does not send); events stay open, since
// new fields may appear within version 1.
import { PERMISSION_MODES } from "../config/schema.ts";
import { ERROR_STATUS } from "./errors.ts";

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const str = { type: "string" };
export const int = { type: "integer" };
/** An object with exactly these keys (the `optional` ones may be absent). */
export const closed = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: "object",
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  additionalProperties: false,
});

/** One event type: the envelope every event has, plus its own fields (docs/events.md). */
function event(type: string, properties: Record<string, unknown>, optional: string[] = []) {
  const all = { type: { const: type }, session_id: str, seq: int, ...properties };
  return { type: "object", properties: all, required: Object.keys(all).filter((k) => !optional.includes(k)) };
}

const usage = closed({ input_tokens: int, output_tokens: int, cache_read_input_tokens: int, cache_creation_input_tokens: int });
const nullableNumber = { type: ["number", "null"] };
const rules = { type: "array", items: { type: "string", minLength: 1 }, description: 'permission rules, e.g. "bash(git *)"' };

const events = {
  session: event("session", { id: str, cwd: str, model: str, version: str, agent: str }, ["agent"]),
  user: event("user", { text: str, typed: str }, ["typed"]),
  text_delta: event("text_delta", { text: str }),
  retry: event("retry", { attempt: int, delay_ms: int, reason: str }),
  assistant: event("assistant", { content: { type: "array", items: { type: "object" } }, stop_reason: { type: ["string", "null"] }, usage, cost_usd: nullableNumber, model: str }, ["cost_usd"]),
  tool_start: event("tool_start", { id: str, name: str, input: {} }),
  tool_output: event("tool_output", { id: str, chunk: str }),
  permission_ask: event("permission_ask", { id: str, tool_use_id: str, tool: str, requests: { type: "array", items: ref("PermissionRequest") }, reason: str, tainted: str, taint_sources: { type: "array", items: str } }, ["reason", "tainted", "taint_sources"]),
  permission_reply: event("permission_reply", { id: str, reply: { enum: ["once", "always", "reject"] }, message: str }, ["message"]),
  tool_end: event(
    "tool_end",
    {
      id: str,
      name: str,
      is_error: { type: "boolean" },
      output: str,
      truncated: { type: "boolean" },
      metadata: { type: "object" },
      refused: { type: "boolean" },
      provenance: { type: "object", properties: { kind: { enum: ["workspace", "outside", "web", "mcp", "untrusted-repo"] }, source: str }, required: ["kind", "source"] },
    },
    ["metadata", "refused", "provenance"],
  ),
  taint: event("taint", { kind: { enum: ["web", "mcp", "untrusted-repo"] }, source: str, turn: int }),
  taint_cleared: event("taint_cleared", { source: str }),
  compaction: event(
    "compaction",
    {
      summary: str,
      method: { enum: ["prune", "summary", "cut"] },
      tokens_before: int,
      tokens_after: int,
      first_kept: int,
      head: { type: ["string", "null"] },
      pruned: { type: "array", items: int },
      usage,
      cost_usd: nullableNumber,
      outside_run: { type: "boolean" },
    },
    ["usage", "cost_usd", "outside_run"],
  ),
  title: event("title", { title: str, usage, cost_usd: nullableNumber }, ["usage", "cost_usd"]),
  error: event("error", { message: str, code: str }, ["code"]),
  mcp_server: event("mcp_server", { name: str, state: { enum: ["failed", "needs login", "connecting"] }, error: str }),
  task_notification: event(
    "task_notification",
    { task_id: str, tool_use_id: str, status: { enum: ["completed", "failed", "killed"] }, summary: str, name: str, usage, cost_usd: nullableNumber, duration_ms: int },
    ["name"],
  ),
  hook_start: event("hook_start", { id: str, event: str, source: str, handler: str, tool_use_id: str }, ["tool_use_id"]),
  hook_end: event(
    "hook_end",
    { id: str, event: str, source: str, handler: str, decision: str, duration_ms: int, output: str, error: str, tool_use_id: str },
    ["error", "tool_use_id"],
  ),
  checkpoint: event(
    "checkpoint",
    {
      n: int,
      changed: { type: "array", items: { type: "object", properties: { status: str, path: str, from: str }, required: ["status", "path"] } },
      uncovered: { type: "array", items: str },
      side_effects: { type: "array", items: str },
      incomplete: str,
    },
    ["incomplete"],
  ),
  undo: event("undo", { redo: { type: "boolean" }, files: { type: "array", items: str }, messages: int, side_effects: { type: "array", items: str } }),
  // the server's own: the first event of a resumed stream whose client was cut off for leaving the last one unread (docs/server.md)
  stream_cut: event("stream_cut", {
    seq: { const: -1, description: "not stored: sent without an id, so Last-Event-ID stays the last event seen" },
    reason: { enum: ["stalled"] },
    last_sent: { type: "integer", description: "the last seq the cut stream had handed to the connection (the client may not have read it)" },
    unread_ms: { type: "integer", description: "how long it was left unread" },
    at: { type: "integer", description: "when it was cut, milliseconds since the epoch" },
  }),
  result: event(
    "result",
    {
      status: { enum: ["success", "error", "max_turns", "permission", "interrupted", "stopped"] },
      text: str,
      usage,
      cost_usd: nullableNumber,
      turns: int,
      duration_ms: int,
      error: str,
      model: str,
    },
    ["error", "model"],
  ),
};
const eventSchemas = Object.fromEntries(Object.entries(events).map(([type, schema]) => [`${pascal(type)}Event`, schema]));

const settings = closed({ permission_mode: { enum: PERMISSION_MODES }, agent: { type: "string", minLength: 1 }, allow: rules, deny: rules, ask: rules }, ["permission_mode", "agent", "allow", "deny", "ask"]);

export const SCHEMAS = {
  Error: closed({ error: closed({ code: { enum: Object.keys(ERROR_STATUS) }, message: str }) }),
  Session: closed({
    id: str,
    cwd: str,
    model: str,
    title: { type: ["string", "null"] },
    created_at: { type: "integer", description: "milliseconds since the epoch" },
    updated_at: { type: "integer", description: "milliseconds since the epoch" },
    running: { type: "boolean", description: "a prompt is running" },
    settings: { ...settings, description: "what the session was created with over HTTP (empty for one made elsewhere)" },
  }),
  NewSession: closed(
    {
      cwd: { type: "string", minLength: 1, description: "defaults to the directory rein was started in" },
      model: { type: "string", minLength: 1 },
      permission_mode: { enum: PERMISSION_MODES },
      agent: { type: "string", minLength: 1, description: "the agent the session runs as (build, plan or an agent file's name; see docs/agents.md)" },
      allow: rules,
      deny: rules,
      ask: rules,
    },
    ["cwd", "model", "permission_mode", "agent", "allow", "deny", "ask"],
  ),
  PermissionRequest: {
    type: "object",
    properties: {
      permission: { type: "string", description: "bash, edit, read, external_directory, webfetch or a tool's own name" },
      pattern: str,
      always: { type: "array", items: str, description: "the patterns an always answer saves" },
      opaque: { type: "boolean" },
      reason: str,
      fixed: closed({ action: { enum: ["deny", "ask"] }, reason: str }),
    },
    required: ["permission", "pattern", "always"],
  },
  McpServer: closed(
    {
      name: str,
      source: { type: "string", description: "the config file it came from" },
      scope: { enum: ["user", "project", "local"] },
      transport: { enum: ["stdio", "http", "sse", null] },
      state: { enum: ["disabled", "failed", "connecting", "connected", "closed"] },
      tools: { type: "array", items: closed({ name: str, server_name: str, offered: { type: "boolean" } }) },
      prompts: { type: "array", items: str, description: "its prompts as slash commands, /mcp__SERVER__PROMPT" },
      resources: { type: "boolean", description: "the server has resources (mcp_resources, @SERVER:URI)" },
      problems: { type: "array", items: closed({ tool: str, reason: str }) },
      error: { type: ["string", "null"] },
      url: str,
      headers: { type: "array", items: str, description: "the names of its headers (never their values)" },
      command: { type: "array", items: str },
      env: { type: "array", items: str, description: "the names of its env variables (never their values)" },
      log: { type: "string", description: "its stderr log file" },
    },
    ["url", "headers", "command", "env", "log"],
  ),
  Provider: closed({
    name: str,
    api: str,
    baseURL: str,
    key: { type: "string", description: 'set, none needed, or missing (and the variable to set); never the key' },
    keyOk: { type: "boolean" },
    source: { type: "string", description: "built-in, or the config file it came from" },
    models: {
      type: "array",
      description: "empty: the provider takes any model id (PROVIDER/MODEL-ID)",
      items: closed(
        {
          name: { type: "string", description: "what --model takes" },
          contextWindow: int,
          maxOutput: int,
          price: { type: ["object", "null"], description: "US dollars per million tokens; null when unknown (cost shown as null)" },
          capabilities: { type: "object", additionalProperties: { type: "boolean" } },
          source: str,
        },
        ["price"],
      ),
    },
  }),
  PermissionAsk: closed({ id: str, tool: str, requests: { type: "array", items: ref("PermissionRequest") }, reason: str }, ["reason"]),
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

function pascal(snake: string): string {
  return snake.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());
}
