// What rein reads of the client's messages, checked with valibot at the boundary: each agent method's
// params and the answers to rein's own requests. Fields rein does not read pass through unchecked
// (loose objects), as ACP's `_meta` and later additions must. What they let through must fit the
// SDK's types where the handlers pass it on (a prompt's blocks, the MCP servers), which tsc checks.
import * as v from "valibot";
import { CODES, RpcError } from "./rpc.ts";

const pair = v.looseObject({ name: v.string(), value: v.string() });
const mcpServer = v.union([
  v.looseObject({ name: v.string(), command: v.string(), args: v.array(v.string()), env: v.array(pair) }),
  v.looseObject({ type: v.picklist(["http", "sse"]), name: v.string(), url: v.string(), headers: v.array(pair) }),
]);
const resource = v.union([
  v.looseObject({ uri: v.string(), text: v.string(), mimeType: v.nullish(v.string()) }),
  v.looseObject({ uri: v.string(), blob: v.string(), mimeType: v.nullish(v.string()) }),
]);
const contentBlock = v.variant("type", [
  v.looseObject({ type: v.literal("text"), text: v.string() }),
  v.looseObject({ type: v.literal("image"), data: v.string(), mimeType: v.string() }),
  v.looseObject({ type: v.literal("audio"), data: v.string(), mimeType: v.string() }),
  v.looseObject({ type: v.literal("resource"), resource }),
  v.looseObject({ type: v.literal("resource_link"), uri: v.string(), name: v.string() }),
]);
const sessionId = v.string();

export const PARAMS = {
  initialize: v.looseObject({
    protocolVersion: v.number(),
    clientCapabilities: v.optional(v.looseObject({ fs: v.optional(v.looseObject({ readTextFile: v.optional(v.boolean()), writeTextFile: v.optional(v.boolean()) })), terminal: v.optional(v.boolean()) })),
  }),
  authenticate: v.looseObject({ methodId: v.string() }),
  newSession: v.looseObject({ cwd: v.string(), mcpServers: v.array(mcpServer) }),
  loadSession: v.looseObject({ sessionId, cwd: v.string(), mcpServers: v.array(mcpServer) }),
  listSessions: v.optional(v.looseObject({ cwd: v.nullish(v.string()) }), {}),
  prompt: v.looseObject({ sessionId, prompt: v.array(contentBlock) }),
  setMode: v.looseObject({ sessionId, modeId: v.string() }),
  setConfigOption: v.looseObject({ sessionId, configId: v.string(), value: v.union([v.string(), v.boolean()]) }),
  cancel: v.looseObject({ sessionId }),
};

export const ANSWERS = {
  requestPermission: v.looseObject({
    outcome: v.variant("outcome", [v.looseObject({ outcome: v.literal("cancelled") }), v.looseObject({ outcome: v.literal("selected"), optionId: v.string() })]),
  }),
  readTextFile: v.looseObject({ content: v.string() }),
};

/** `params` as `schema` reads them, or the invalid-params error naming what is wrong. */
export function paramsOf<S extends v.GenericSchema>(schema: S, params: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, params);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const path = issue.path?.map((p) => p.key).join(".");
  throw new RpcError(CODES.invalidParams, `Invalid params: ${path ? `${path}: ` : ""}${issue.message}`);
}

/** The client's answer as `schema` reads it; a malformed one fails like a failed request. */
export function answerOf<S extends v.GenericSchema>(schema: S, answer: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, answer);
  if (parsed.success) return parsed.output;
  throw new RpcError(CODES.internal, `the client's answer is malformed: ${parsed.issues[0].message}`);
}
