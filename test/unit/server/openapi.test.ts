// The OpenAPI document is hand-written; these tests keep it honest: valid OpenAPI 3.1 by an
// independent validator (@seriousme/openapi-schema-validator, the official 3.1 JSON Schema), and
// naming exactly the routes the app really registers.
import { Validator } from "@seriousme/openapi-schema-validator";
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../../src/server/app.ts";
import type { SessionHub } from "../../../src/server/hub.ts";
import { OPENAPI } from "../../../src/server/openapi.ts";
import { SERVER_EVENTS, sseEventName } from "../../../src/server/sse.ts";
import { checkEvent } from "./spec-check.ts";

const TOKEN = "t".repeat(32);
// Routes are registered without touching the hub; no request below reaches it.
const app = createApp({ hub: {} as SessionHub, token: TOKEN, origins: [], hosts: () => ["localhost"], version: "0.0.0-test", openapi: OPENAPI });

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];
type Operation = { security?: unknown[]; parameters?: { name: string; in: string }[]; responses: Record<string, unknown> };
type PathItem = Record<string, unknown> & { parameters?: { name: string; in: string }[] };
const paths = OPENAPI.paths as Record<string, PathItem>;

/** "GET /sessions/{id}" for every operation of the document. */
function documented(): string[] {
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** The app's routes in OpenAPI spelling; middleware (method ALL) is not a route. */
function registered(): string[] {
  return app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
}

function operations(): [string, Operation, PathItem][] {
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((m) => m in item).map((m): [string, Operation, PathItem] => [`${m.toUpperCase()} ${path}`, item[m] as Operation, item]),
  );
}

test("the document is valid OpenAPI 3.1 by an independent validator", async () => {
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(JSON.stringify(OPENAPI)) as Parameters<Validator["validate"]>[0]);
  expect(validator.version).toBe("3.1");
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test("every route the app registers is in the OpenAPI document, and nothing else is", () => {
  expect(new Set(registered()).size).toBe(registered().length);
  expect(documented().sort()).toEqual(registered().sort());
});

test("a bearer token (or the login cookie) is required everywhere but /health and /login; every route lists 403 and 500", () => {
  expect(OPENAPI.openapi).toBe("3.1.0");
  expect(OPENAPI.security).toEqual([{ bearer: [] }, { cookie: [] }]);
  expect(OPENAPI.servers).toEqual([{ url: "/" }]);
  const schemes = (OPENAPI.components as { securitySchemes: Record<string, unknown> }).securitySchemes;
  expect(schemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
  expect(schemes.cookie).toMatchObject({ type: "apiKey", in: "cookie", name: "rein_login" });
  const open = ["GET /health", "GET /login", "POST /login"];
  for (const [name, op] of operations()) {
    expect({ name, status: Object.keys(op.responses).filter((s) => s === "403" || s === "500") }).toEqual({ name, status: ["403", "500"] });
    if (open.includes(name)) expect(op.security).toEqual([]);
    // the page redirects a browser to the login form instead
    else if (name !== "GET /") expect({ name, has401: "401" in op.responses }).toEqual({ name, has401: true });
  }
});

test("every path parameter is declared and every $ref resolves", () => {
  for (const [name, op, item] of operations()) {
    const declared = [...(item.parameters ?? []), ...(op.parameters ?? [])].filter((p) => p.in === "path").map((p) => p.name);
    const inPath = [...name.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    expect({ name, params: declared.sort() }).toEqual({ name, params: inPath.sort() });
  }
  const text = JSON.stringify(OPENAPI);
  for (const [, pointer] of text.matchAll(/"\$ref":"#\/([^"]+)"/g)) {
    const target = pointer!.split("/").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], OPENAPI);
    expect({ pointer, found: target !== undefined }).toEqual({ pointer, found: true });
  }
});

test("the schemas the brief promises are there: Session, Event (with result), PermissionAsk, Error", () => {
  const schemas = (OPENAPI.components as { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> }).schemas;
  for (const name of ["Session", "Event", "PermissionAsk", "Error", "ResultEvent"]) expect(schemas[name]).toBeDefined();
  expect(schemas.ResultEvent?.required).toEqual(expect.arrayContaining(["type", "session_id", "seq", "status", "text", "usage", "cost_usd", "turns", "duration_ms"]));
  const events = paths["/sessions/{id}/events"]?.get as Operation;
  expect(Object.keys((events.responses["200"] as { content: Record<string, unknown> }).content)).toEqual(["text/event-stream"]);
});

test("GET /openapi.json serves the document", async () => {
  const res = await app.request("/openapi.json", { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual(JSON.parse(JSON.stringify(OPENAPI)));
});

/** The `type` literals of the AgentEvent union, read from its source (there is no runtime list of them). */
function agentEventTypes(): string[] {
  const source = readFileSync(join(import.meta.dir, "../../../src/agent/types.ts"), "utf8");
  const start = source.indexOf("export type AgentEvent =");
  const union = source.slice(start, source.indexOf("\nexport ", start + 1));
  return [...union.matchAll(/\|\s*\{\s*type:\s*"(\w+)"/g)].map((m) => m[1]!);
}

test("every event type the stream can send (the session's and the server's own) is in the Event schema, by its discriminator and its SSE name", () => {
  const types = agentEventTypes();
  // the reading of the union itself: it finds the types docs/events.md lists, so a change to its layout fails here
  expect(types).toEqual(expect.arrayContaining(["session", "result", "checkpoint", "undo", "error"]));
  expect(types.length).toBeGreaterThanOrEqual(20);
  const schemas = (OPENAPI.components as { schemas: Record<string, { discriminator?: { mapping: Record<string, string> }; properties?: { type?: { const?: string } } }> }).schemas;
  const mapping = schemas.Event!.discriminator!.mapping;
  expect(Object.keys(mapping).sort()).toEqual([...new Set([...types, ...SERVER_EVENTS])].sort());
  for (const [type, target] of Object.entries(mapping)) {
    const name = target.split("/").at(-1)!;
    expect({ type, schema: schemas[name]?.properties?.type?.const }).toEqual({ type, schema: type });
  }
  // The stream's own event names: each type's name, `rein_error` for `error`; each is in the document's description of the stream.
  const stream = (paths["/sessions/{id}/events"]?.get as Operation).responses["200"] as { description: string };
  expect(types.filter((type) => sseEventName(type) !== type).map(sseEventName)).toEqual(["rein_error"]);
  expect(stream.description).toContain("rein_error");
});

test("a checkpoint and an undo event as the session sends them validate against the Event schema", () => {
  checkEvent({ type: "checkpoint", session_id: "s_1", seq: 4, n: 1, changed: [{ status: "modified", path: "a.txt" }, { status: "renamed", path: "b", from: "a" }], uncovered: [], side_effects: [] });
  checkEvent({ type: "undo", session_id: "s_1", seq: 5, redo: false, files: ["a.txt"], messages: 2, side_effects: [] });
  expect(() => checkEvent({ type: "undo", session_id: "s_1", seq: 5, redo: false } as never)).toThrow("fails the spec");
  expect(() => checkEvent({ type: "no_such_event", session_id: "s_1", seq: 5 } as never)).toThrow("fails the spec");
});

test("every operation has an operationId, and no two the same", () => {
  const ids = operations().map(([name, op]) => ({ name, id: (op as { operationId?: string }).operationId }));
  for (const { name, id } of ids) expect({ name, id: typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id) }).toEqual({ name, id: true });
  expect(new Set(ids.map((i) => i.id)).size).toBe(ids.length);
});

test("405 is documented (an Error with an Allow header), and a wrong method is answered so, HEAD listed with GET", async () => {
  const responses = (OPENAPI.components as { responses: Record<string, { headers: Record<string, unknown>; content: Record<string, { schema: unknown }> }> }).responses;
  expect(Object.keys(responses.MethodNotAllowed!.headers)).toEqual(["Allow"]);
  expect(responses.MethodNotAllowed!.content["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/Error" });
  expect((OPENAPI.info as { description: string }).description).toContain("405 method_not_allowed");
  const res = await app.request("/openapi.json", { method: "DELETE", headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(405);
  expect(res.headers.get("allow")).toBe("GET, HEAD");
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
});

test("HEAD sends the head GET sends: the body's real Content-Length, never a Content-Length of 0 for a body", async () => {
  const get = await app.request("/openapi.json", { headers: { Authorization: `Bearer ${TOKEN}` } });
  const bytes = (await get.arrayBuffer()).byteLength;
  const head = await app.request("/openapi.json", { method: "HEAD", headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(head.status).toBe(200);
  expect(head.headers.get("content-length")).toBe(String(bytes));
  expect(bytes).toBeGreaterThan(1000);
  expect(await head.text()).toBe("");
});
