// A server's sessions let their MCP servers go: deleting or trashing a session, unloading an idle
// one and shutting down end the stdio servers' processes (found by a marker in their command line).
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../../src/server/app.ts";
import { SessionHub } from "../../../src/server/hub.ts";
import { OPENAPI } from "../../../src/server/openapi.ts";
import { sessionOptions } from "../../../src/app/factory.ts";
import { Store } from "../../../src/session/store.ts";
import { startFakeAnthropic } from "../../fake/server.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { sseReader } from "../server/sse-client.ts";
import { rogue, runSettings } from "./servers.ts";

const fake = await startFakeAnthropic({ strict: true });
afterAll(() => fake.close());
const TOKEN = "a-test-token-of-exactly-32-chars";
const IDLE_MS = 60_000;

/** The pids of processes whose command line has `marker` as an argument. */
function processesWith(marker: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(marker);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** Resolves once no process carries `marker` (checked every 20 ms, for at most 5 s). */
async function gone(marker: string): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (processesWith(marker).length === 0) return;
    await Bun.sleep(20);
  }
  throw new Error(`the MCP server with ${marker} still runs: ${processesWith(marker).join(", ")}`);
}

function server(marker: string, mode = "serve") {
  const dir = tempDir("rein-mcp-serve-");
  const { store } = Store.open(join(dir.path, "rein.db"));
  const settings = runSettings(dir.path, fake.url, { rogue: rogue(mode, { args: [join(import.meta.dir, "fixtures/rogue-server.ts"), mode, marker] }) });
  settings.mcp!.cacheDir = ""; // no cached tool list: every session starts its server
  let now = 1_000_000;
  const hub = new SessionHub({
    store,
    optionsFor: () => ({ cwd: dir.path, options: sessionOptions(settings, store) }),
    optionsForStored: () => sessionOptions(settings, store),
    idleMs: IDLE_MS,
    now: () => now,
  });
  const app = createApp({ hub, token: TOKEN, origins: [], hosts: () => ["localhost"], version: "0.0.0-test", openapi: OPENAPI });
  const call = (method: string, path: string, body?: unknown) =>
    app.request(path, { method, headers: { authorization: `Bearer ${TOKEN}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  /** A session whose first prompt has connected its MCP server. */
  const connected = async (): Promise<string> => {
    const { id } = (await (await call("POST", "/sessions", {})).json()) as { id: string };
    await prompt(id);
    return id;
  };
  const prompt = async (id: string) => {
    fake.script({ reply: [{ type: "text", text: "hi" }] });
    const res = await call("POST", `/sessions/${id}/prompt?wait=1`, { text: "hi" });
    expect(await res.json()).toMatchObject({ type: "result", status: "success" });
  };
  return {
    hub,
    call,
    connected,
    prompt,
    later: (ms: number) => void (now += ms),
    [Symbol.asyncDispose]: async () => {
      await hub.shutdown();
      store.close();
      dir.remove();
    },
  };
}

test("DELETE /sessions/:id (trash or purge) ends the session's stdio MCP server", async () => {
  const marker = `marker-delete-${process.pid}`;
  await using s = server(marker);
  const trashed = await s.connected();
  expect(processesWith(marker)).toHaveLength(1);
  expect((await s.call("DELETE", `/sessions/${trashed}`)).status).toBe(200);
  await gone(marker);
  const purged = await s.connected();
  expect(processesWith(marker)).toHaveLength(1);
  expect((await s.call("DELETE", `/sessions/${purged}?purge=1`)).status).toBe(200);
  await gone(marker);
}, 30_000);

test("an idle session is unloaded with its MCP server and opened again on next use; a stream or a recent use keeps it", async () => {
  const marker = `marker-idle-${process.pid}`;
  await using s = server(marker);
  const id = await s.connected();
  // Asked for a moment ago: kept.
  s.later(IDLE_MS - 1);
  expect(await s.hub.unloadIdle()).toEqual([]);
  // A stream open: kept however long it stays open.
  const stream = sseReader(await s.call("GET", `/sessions/${id}/events?after=1000000`));
  s.later(IDLE_MS * 10);
  expect(await s.hub.unloadIdle()).toEqual([]);
  expect(processesWith(marker)).toHaveLength(1);
  await stream.close();
  // Idle from the moment the stream went.
  s.later(IDLE_MS);
  expect(await s.hub.unloadIdle()).toEqual([id]);
  await gone(marker);
  // The next prompt opens it again from the store, and its server with it.
  await s.prompt(id);
  expect(processesWith(marker)).toHaveLength(1);
  expect(fake.requests.at(-1)!.body.messages).toHaveLength(3); // the first exchange, then the new prompt
}, 30_000);

test("shutdown ends every loaded session's MCP server", async () => {
  const marker = `marker-shutdown-${process.pid}`;
  const s = server(marker);
  await s.connected();
  await s.connected();
  expect(processesWith(marker)).toHaveLength(2);
  await s[Symbol.asyncDispose]();
  await gone(marker);
}, 30_000);

test("a session deleted while its server is still connecting ends that server too", async () => {
  const marker = `marker-connecting-${process.pid}`;
  await using s = server(marker, "hang-start");
  const { id } = (await (await s.call("POST", "/sessions", {})).json()) as { id: string };
  // The session's servers start connecting when it is made; this one never answers the handshake.
  for (let i = 0; i < 250 && processesWith(marker).length === 0; i++) await Bun.sleep(20);
  expect(processesWith(marker)).toHaveLength(1);
  expect((await s.call("DELETE", `/sessions/${id}`)).status).toBe(200);
  await gone(marker);
}, 30_000);
