// The session's MCP servers over the server API (GET /sessions/:id/mcp, checked against the OpenAPI
// document) and the resources tool the model gets, against server-everything and the rogue server.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { sessionOptions } from "../../../src/app/factory.ts";
import { Store } from "../../../src/session/store.ts";
import { createApp } from "../../../src/server/app.ts";
import { SessionHub } from "../../../src/server/hub.ts";
import { OPENAPI } from "../../../src/server/openapi.ts";
import { startFakeAnthropic } from "../../fake/server.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { checkResponse } from "../server/spec-check.ts";
import { call, everything, hub, rogue, runSettings } from "./servers.ts";

const fake = await startFakeAnthropic({ strict: true });
afterAll(() => fake.close());
const TOKEN = "a-test-token-of-exactly-32-chars";

test("GET /sessions/:id/mcp lists the session's servers with state, tools, prompts and errors", async () => {
  const dir = tempDir("rein-mcp-api-");
  const { store } = Store.open(join(dir.path, "rein.db"));
  const settings = runSettings(dir.path, fake.url, { rogue: rogue(), ghost: { command: "no-such-mcp-server-xyz" } });
  const sessions = new SessionHub({ store, optionsFor: () => ({ cwd: dir.path, options: sessionOptions(settings, store) }), optionsForStored: () => sessionOptions(settings, store) });
  const app = createApp({ hub: sessions, token: TOKEN, origins: [], hosts: () => ["localhost"], version: "0.0.0-test", openapi: OPENAPI });
  const session = sessions.create({});
  try {
    fake.script({ reply: [{ type: "text", text: "hi" }] });
    await session.prompt("hi"); // the first turn waits for the servers
    const path = `/sessions/${session.id}/mcp`;
    const res = await app.request(path, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const body = (await checkResponse("GET", path, res)) as { servers: { name: string; state: string; tools: unknown[]; prompts: string[]; error: string | null }[] };
    const [roguely, ghost] = body.servers;
    expect(roguely).toMatchObject({ name: "rogue", state: "connected", prompts: ["/mcp__rogue__picture"], resources: true, error: null });
    expect(roguely!.tools).toContainEqual({ name: "mcp__rogue__ok", server_name: "ok", offered: true });
    expect(ghost).toMatchObject({ name: "ghost", state: "failed" });
    expect(ghost!.error).toContain("could not be started");
    // A prompt sent over the API that starts with a server's prompt command is that prompt.
    fake.script({ reply: [{ type: "text", text: "a picture" }] });
    const ran = await app.request(`/sessions/${session.id}/prompt?wait=1`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ text: "/mcp__rogue__picture" }) });
    expect(await ran.json()).toMatchObject({ type: "result", status: "success", text: "a picture" });
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages.at(-1))).toContain("Describe this picture.");
  } finally {
    await session.end("other").catch(() => undefined);
    store.close();
    dir.remove();
  }
}, 30_000);

test("mcp_resources lists and reads; a read asks for mcp__SERVER__resources with the URI", async () => {
  await using h = hub({ everything: everything(), rogue: rogue() });
  const tools = await h.tools();
  const tool = tools.find((t) => t.name === "mcp_resources")!;
  const uri = "demo://resource/static/document/architecture.md";
  expect(tool.permissions?.({ action: "read", server: "everything", uri }, { cwd: "/" })).toEqual([{ permission: "mcp__everything__resources", pattern: uri, always: ["*"] }]);
  expect(tool.permissions?.({ action: "list" }, { cwd: "/" })).toEqual([]);
  const listed = await call(tools, "mcp_resources", { action: "list" });
  expect(listed.output).toContain(`everything  ${uri}  architecture.md (text/markdown)`);
  expect(listed.output).toContain("rogue  rogue://picture.png  picture (image/png)");
  const read = await call(tools, "mcp_resources", { action: "read", server: "everything", uri });
  expect(read.output).toStartWith(`<resource server="everything" uri="${uri}">\n`);
  const image = await call(tools, "mcp_resources", { action: "read", server: "rogue", uri: "rogue://picture.png" });
  expect(image.images?.[0]?.mediaType).toBe("image/png");
  expect(await call(tools, "mcp_resources", { action: "read", server: "nobody", uri })).toEqual({ output: "No MCP server \"nobody\" here; the servers are: everything, rogue.", isError: true });
  const missing = await call(tools, "mcp_resources", { action: "read", server: "rogue", uri: "rogue://gone" });
  expect(missing).toMatchObject({ isError: true, output: 'MCP server "rogue" failed reading rogue://gone: MCP error -32002: no resource rogue://gone' });
}, 30_000);
