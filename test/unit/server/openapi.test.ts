// The OpenAPI document is hand-written; these tests keep it honest: valid OpenAPI 3.1 by an
// independent validator (@seriousme/openapi-schema-validator, the official 3.1 JSON Schema), and
// naming exactly the routes the app really registers.
import { Validator } from "@seriousme/openapi-schema-validator";
import { expect, test } from "bun:test";
import { createApp } from "../../../src/server/app.ts";
import type { SessionHub } from "../../../src/server/hub.ts";
import { OPENAPI } from "../../../src/server/openapi.ts";

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
