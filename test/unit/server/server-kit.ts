// The HTTP API in process for the server's tests: app.request() with no network, over a real
// SessionHub, a real SQLite store and the real provider against the fake model server, so prompts
// really run. Every answer `call` returns has been checked against the OpenAPI document.
import { beforeAll, beforeEach, expect } from "bun:test";
import type { Hono } from "hono";
import * as v from "valibot";
import type { Rule } from "../../../src/permission/evaluate.ts";
import { defineTool } from "../../../src/sdk.ts";
import { createApp, type AppDeps } from "../../../src/server/app.ts";
import { SessionHub, type SessionParams } from "../../../src/server/hub.ts";
import { OPENAPI } from "../../../src/server/openapi.ts";
import { ALLOW_ALL, type Kit, useKit } from "../../support/session-kit.ts";
import { checkEvent, checkResponse } from "./spec-check.ts";
import { sseReader, type SseReader } from "./sse-client.ts";

export const TOKEN = "a-test-token-of-exactly-32-chars";
export const ALLOWED_ORIGIN = "https://allowed.example";
export const auth = { authorization: `Bearer ${TOKEN}` };

/** A tool whose calls need a permission decision when the session's `ask` rules name it. */
export const probe = defineTool({
  name: "probe",
  description: "Probes.",
  input: v.object({}),
  permissions: () => [{ permission: "probe", pattern: "x", always: ["x"] }],
  run: () => "probed",
});
export const callProbe = (id: string) => ({ reply: [{ type: "tool_use" as const, name: "probe", input: {}, id }] });
export const say = (text: string) => ({ reply: [{ type: "text" as const, text }] });

export type ServerKit = {
  kit: Kit;
  hub: SessionHub;
  app: Hono;
  /** A request with the token (unless `headers` replaces it); the answer checked against the spec. */
  call(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  newSession(params?: SessionParams): Promise<string>;
};

/** One server over the shared kit for a test file (filled in before its tests); `extra` adds to or replaces the app's deps. */
export function useServer(extra: Partial<AppDeps> = {}): ServerKit {
  const useShared = useKit();
  const state = {} as ServerKit;
  const rulesOf = (params: SessionParams): Rule[] => [...ALLOW_ALL, ...(params.ask ?? []).map((permission): Rule => ({ permission, pattern: "*", action: "ask" }))];
  beforeAll(() => {
    state.kit = useShared();
    const optionsFor = (params: SessionParams) => state.kit.options({ tools: [probe], rules: rulesOf(params) });
    state.hub = new SessionHub({
      store: state.kit.store,
      optionsFor: (params) => ({ cwd: params.cwd ?? state.kit.dir.path, options: optionsFor(params) }),
      optionsForStored: () => optionsFor({}),
    });
    state.app = createApp({
      hub: state.hub,
      token: TOKEN,
      origins: [ALLOWED_ORIGIN],
      hosts: () => ["localhost"],
      version: "0.0.0-test",
      openapi: OPENAPI,
      heartbeatMs: 30,
      // Wrong tokens are throttled (throttle.test.ts checks how); here the waits take no time.
      throttleClock: { now: Date.now, sleep: async () => {} },
      ...extra,
    });
    state.call = async (method, path, opts = {}) => {
      const body = opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
      const res = await state.app.request(path, { method, headers: { ...auth, ...opts.headers }, ...(body === undefined ? {} : { body }) });
      await checkResponse(method, path, res);
      return res;
    };
    state.newSession = async (params = {}) => {
      const res = await state.call("POST", "/sessions", { body: params });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
  });
  beforeEach(() => {
    state.kit = useShared();
  });
  return state;
}

export async function expectError(res: Response, status: number, code: string): Promise<string> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  return body.error.message;
}

/** An SSE reader whose events are each checked against the spec's Event schema. */
export function checkedSse(res: Response): SseReader {
  const reader = sseReader(res);
  return {
    ...reader,
    async until(stop) {
      const events = await reader.until(stop);
      for (const e of events) checkEvent(e.data);
      return events;
    },
  };
}
