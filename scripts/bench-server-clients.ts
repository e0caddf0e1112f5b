// The server under clients that do not read: 500 HEADs on the events route (the server's memory
// must come back within 10% of where it started) and 600 clients that open the stream of a session
// with a long replay and never read it (its memory must stay under 200 MiB). Each figure gets a
// fresh `rein --serve` over a store seeded with that session.
// Standalone: bun scripts/bench-server-clients.ts (after bun run build).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Store } from "../src/session/store.ts";
import { procMemory, servedUrl } from "./bench-proc.ts";
import type { Floor, Row } from "./bench-report.ts";
import { TARGET } from "./bench-targets.ts";

const TOKEN = "bench-clients-token-of-32-chars!";
const SESSION = "s_bench_replay";
const REPLAY_EVENTS = 1000;
const HEADS = 500;
const STALLED = 600;
const MiB = 2 ** 20;

export type ClientFigures = {
  heads: { startBytes: number; afterBytes: number; settledBytes: number };
  stalled: { clients: number; replayBytes: number; peakBytes: number; rssBytes: number };
};

export async function serverClientFigures(bin: string, env: Record<string, string>): Promise<ClientFigures> {
  const home = mkdtempSync(join(tmpdir(), "rein-bench-clients-"));
  try {
    const serverEnv = { ...env, HOME: home, REIN_DATA_DIR: join(home, "data"), REIN_CONFIG_DIR: join(home, "config"), REIN_SERVER_TOKEN: TOKEN };
    const replayBytes = seed(join(home, "data", "rein.db"), home);
    const heads = await withServer(bin, serverEnv, home, (server) => headFigure(server));
    const stalled = await withServer(bin, serverEnv, home, (server) => stalledFigure(server, replayBytes));
    console.error(
      `server clients: ${HEADS} HEADs ${mib(heads.startBytes)} -> ${mib(heads.afterBytes)} -> ${mib(heads.settledBytes)} MiB; ` +
        `${STALLED} stalled clients of a ${mib(replayBytes)} MiB replay: peak ${mib(stalled.peakBytes)} MiB (RSS ${mib(stalled.rssBytes)} MiB)`,
    );
    return { heads, stalled };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

type Server = { pid: number; port: number };

/** A session of REPLAY_EVENTS text deltas of about 1 KB each; returns the bytes of its events. */
function seed(db: string, cwd: string): number {
  mkdirSync(join(db, ".."), { recursive: true });
  const { store } = Store.open(db);
  store.createSession({ id: SESSION, cwd, model: "claude-sonnet-5-5" });
  let bytes = 0;
  store.transaction(() => {
    for (let i = 0; i < REPLAY_EVENTS; i++) bytes += JSON.stringify(store.appendEvent(SESSION, { type: "text_delta", text: `${i} ${"x".repeat(1000)}` })).length;
  });
  store.close();
  return bytes;
}

async function withServer<T>(bin: string, env: Record<string, string>, cwd: string, run: (server: Server) => Promise<T>): Promise<T> {
  const proc = Bun.spawn([bin, "--serve", "--port", "0"], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  const url = await servedUrl(proc);
  try {
    return await run({ pid: proc.pid, port: Number(new URL(url).port) });
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

async function headFigure(server: Server): Promise<ClientFigures["heads"]> {
  const url = `http://127.0.0.1:${server.port}/sessions/${SESSION}/events`;
  const head = async () => {
    const res = await fetch(url, { method: "HEAD", headers: { authorization: `Bearer ${TOKEN}` } });
    if (res.status !== 200) throw new Error(`HEAD answered ${res.status}`);
  };
  for (let i = 0; i < 100; i += 50) await Promise.all(Array.from({ length: 50 }, head)); // the session opened, the code paths and the allocator warm
  const startBytes = await settled(server.pid, Infinity);
  for (let i = 0; i < HEADS; i += 50) await Promise.all(Array.from({ length: 50 }, head));
  const afterBytes = await procMemory(server.pid, "VmRSS");
  return { startBytes, afterBytes, settledBytes: await settled(server.pid, startBytes * 1.1) };
}

async function stalledFigure(server: Server, replayBytes: number): Promise<ClientFigures["stalled"]> {
  const request = `GET /sessions/${SESSION}/events HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${TOKEN}\r\nAccept: text/event-stream\r\n\r\n`;
  const sockets: Socket[] = [];
  try {
    for (let i = 0; i < STALLED; i++) {
      sockets.push(
        await new Promise<Socket>((done, fail) => {
          const socket = connect(server.port, "127.0.0.1", () => {
            socket.pause(); // never read: what the server sends piles up until the socket is full
            socket.write(request, () => done(socket));
          });
          socket.on("error", fail);
        }),
      );
    }
    const rssBytes = await settled(server.pid, 0, 3000);
    return { clients: STALLED, replayBytes, peakBytes: await procMemory(server.pid, "VmHWM"), rssBytes };
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

/** RSS once it is at most `target`, or after `maxMs` (sampled every 250 ms): memory given back takes the GC a moment. */
async function settled(pid: number, target: number, maxMs = 10_000): Promise<number> {
  let rss = await procMemory(pid, "VmRSS");
  for (let waited = 0; waited < maxMs && rss > target; waited += 250) {
    await Bun.sleep(250); // sampling the server's memory over time, not waiting for a state
    rss = await procMemory(pid, "VmRSS");
  }
  return rss;
}

const mib = (bytes: number) => (bytes / MiB).toFixed(1);

export function serverClientRows(clients: ClientFigures, printerRss: Floor): Row[] {
  return [
    {
      figure: "500 HEADs on a session's events route: server RSS before / right after / settled",
      shown: `${(clients.heads.startBytes / 2 ** 20).toFixed(1)} / ${(clients.heads.afterBytes / 2 ** 20).toFixed(1)} / ${(clients.heads.settledBytes / 2 ** 20).toFixed(1)} MiB`,
      value: clients.heads.settledBytes / clients.heads.startBytes,
      target: { max: 1.1, text: "settled within 10% of before" },
    },
    {
      figure: `${clients.stalled.clients} clients that open the events of a ${(clients.stalled.replayBytes / 2 ** 20).toFixed(1)} MiB session and never read: server peak memory (VmHWM)`,
      shown: `${(clients.stalled.peakBytes / 2 ** 20).toFixed(1)} MiB`,
      value: clients.stalled.peakBytes / 2 ** 20,
      floor: printerRss,
      target: { ratio: TARGET.stalledClients },
    },
  ];
}

if (import.meta.main) {
  const bin = resolve(import.meta.dir, "../dist/rein");
  const figures = await serverClientFigures(bin, { PATH: process.env.PATH ?? "/usr/bin:/bin", ANTHROPIC_API_KEY: "bench-key" });
  console.log(JSON.stringify(figures));
}
