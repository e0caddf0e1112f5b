// The catalog routes in process: a client lists the agents and models of a folder's configuration
// and forks a session as rein sessions fork does; what is wrong is one JSON error naming it.
import { expect, test } from "bun:test";
import type { Catalog } from "../../../src/server/catalog-routes.ts";
import { expectError, say, useServer } from "./server-kit.ts";

const asked: (string | undefined)[] = [];
let modelsAnswer: ReturnType<Catalog["models"]> = { model: "claude-sonnet-5-5", providers: [] };
const catalog: Catalog = {
  agents: (cwd) => {
    asked.push(cwd);
    return [{ name: "reviewer", mode: "subagent", description: "Reviews", source: `${cwd ?? "server"}/.rein/agents/reviewer.md`, default: false }];
  },
  models: (cwd) => {
    asked.push(cwd);
    return modelsAnswer;
  },
};

const s = useServer({ catalog });
const bare = useServer();

test("GET /agents lists the configuration's agents, for ?cwd= when given and the server's folder when not", async () => {
  const res = await s.call("GET", "/agents?cwd=/work/p");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ agents: [{ name: "reviewer", mode: "subagent", description: "Reviews", source: "/work/p/.rein/agents/reviewer.md", default: false }] });
  await s.call("GET", "/agents");
  expect(asked.slice(-2)).toEqual(["/work/p", undefined]);
});

test("an empty ?cwd= is a 400 saying to leave it out", async () => {
  const message = await expectError(await s.call("GET", "/agents?cwd="), 400, "bad_request");
  expect(message).toContain('"cwd": an empty folder');
  await expectError(await s.call("GET", "/models?cwd="), 400, "bad_request");
});

test("GET /models gives the model and the providers; a providers config that is wrong is a 409 session_unavailable with its sentence", async () => {
  modelsAnswer = { model: "openai/gpt-5", providers: [{ name: "openai", api: "openai-chat", baseURL: "https://api.openai.com/v1", key: "set", keyOk: true, source: "built-in", models: [] }] };
  const res = await s.call("GET", "/models");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual(modelsAnswer);
  modelsAnswer = 'config error in /u/config.json: "providers.corp.api" is required';
  const message = await expectError(await s.call("GET", "/models"), 409, "session_unavailable");
  expect(message).toBe('config error in /u/config.json: "providers.corp.api" is required');
  modelsAnswer = { model: "claude-sonnet-5-5", providers: [] };
});

test("a server made without a catalog answers /agents and /models with a 404 saying so", async () => {
  expect(await expectError(await bare.call("GET", "/agents"), 404, "not_found")).toBe("this server lists no agents or models");
  await expectError(await bare.call("GET", "/models"), 404, "not_found");
});

async function sessionWithTurns(texts: string[]): Promise<string> {
  const id = await s.newSession();
  for (const text of texts) {
    s.kit.fake.script(say(`answer to ${text}`));
    const res = await s.call("POST", `/sessions/${id}/prompt?wait=1`, { body: { text } });
    expect(res.status).toBe(200);
  }
  return id;
}

test("POST /sessions/:id/fork copies the whole conversation into a new session that answers like the old one", async () => {
  const id = await sessionWithTurns(["one", "two"]);
  const res = await s.call("POST", `/sessions/${id}/fork`, { body: {} });
  expect(res.status).toBe(201);
  const fork = (await res.json()) as { id: string; from: string; messages: number; requested: number };
  expect(fork).toMatchObject({ from: id, messages: 4, requested: 4 });
  expect(fork.id).not.toBe(id);
  const messagesOf = async (sid: string) => ((await (await s.call("GET", `/sessions/${sid}`)).json()) as { messages: unknown[] }).messages;
  const original = await messagesOf(id);
  expect(await messagesOf(fork.id)).toEqual(original);
  // the fork is a session of its own: a prompt there sends the copied conversation and leaves the original alone
  s.kit.fake.script(say("in the fork"));
  expect((await s.call("POST", `/sessions/${fork.id}/prompt?wait=1`, { body: { text: "three" } })).status).toBe(200);
  expect(s.kit.fake.requests.at(-1)!.body.messages).toHaveLength(5);
  expect(await messagesOf(id)).toEqual(original);
});

test("fork at N keeps the first N messages, cut back to a conversation the model accepts", async () => {
  const id = await sessionWithTurns(["one", "two"]);
  const at2 = (await (await s.call("POST", `/sessions/${id}/fork`, { body: { at: 2 } })).json()) as { id: string; messages: number; requested: number };
  expect([at2.messages, at2.requested]).toEqual([2, 2]);
  // one message past the whole conversation asks for everything there is
  const past = (await (await s.call("POST", `/sessions/${id}/fork`, { body: { at: 99 } })).json()) as { messages: number; requested: number };
  expect([past.messages, past.requested]).toEqual([4, 4]);
});

test("fork refuses a bad 'at', an unknown session and a trashed one", async () => {
  const id = await sessionWithTurns(["one"]);
  expect(await expectError(await s.call("POST", `/sessions/${id}/fork`, { body: { at: -1 } }), 400, "bad_request")).toContain("at");
  expect(await expectError(await s.call("POST", `/sessions/${id}/fork`, { body: { at: 1.5 } }), 400, "bad_request")).toContain("at");
  await expectError(await s.call("POST", `/sessions/${id}/fork`, { body: { upTo: 1 } }), 400, "bad_request");
  await expectError(await s.call("POST", "/sessions/s_nope/fork", { body: {} }), 404, "not_found");
  expect((await s.call("DELETE", `/sessions/${id}`)).status).toBe(200);
  expect(await expectError(await s.call("POST", `/sessions/${id}/fork`, { body: {} }), 404, "not_found")).toContain("in the trash");
});
