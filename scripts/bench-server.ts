// The server under load and at rest: 50 sessions of tool turns at once through one `rein --serve`
// (reply -> SSE delay, peak memory), and an idle server's memory and CPU.
import { encodeSse, replyEvents } from "../test/fake/reply.ts";
import { startFakeAnthropic } from "../test/fake/server.ts";
import { sseReader } from "../test/unit/server/sse-client.ts";
import { procCpuTicks, procMemory, servedUrl } from "./bench-proc.ts";
import type { Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";

export type ServerLoad = { totalMs: number; medianMs: number; p99Ms: number; peakBytes: number };
export type ServerIdle = { rssBytes: number; cpuMs: number };

const SERVER_TOKEN = "bench-server-token-of-32-chars!!";
const SERVER_SESSIONS = 50;
const SERVER_TOOL_TURNS = 4;

type BenchServer = { pid: number; url: string; call: (method: string, path: string, body?: unknown) => Promise<Response>; stop: () => Promise<void> };

/** `rein --serve --port 0`, its URL read from the first stdout line. */
async function startServer(bin: string, env: Record<string, string>, args: string[] = []): Promise<BenchServer> {
  const proc = Bun.spawn([bin, "--serve", "--port", "0", ...args], { env: { ...env, REIN_SERVER_TOKEN: SERVER_TOKEN }, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  const url = await servedUrl(proc);
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${SERVER_TOKEN}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const stop = async () => {
    proc.kill("SIGTERM");
    const code = await proc.exited;
    if (code !== 0) throw new Error(`rein --serve exited ${code} on SIGTERM`);
  };
  return { pid: proc.pid, url, call, stop };
}

/**
 * 50 sessions at once through one server, each 4 `echo N` tool turns then a final text. The fake
 * answers by looking at the request (which session, how many turns so far) and notes when it sent
 * each reply; the delay is from then to the SSE `assistant` event of that turn on the client.
 */
export async function serverLoad(bin: string, env: Record<string, string>): Promise<ServerLoad> {
  const sentAt = new Map<string, number>();
  let ids = 0;
  const fake = await startFakeAnthropic({
    repeat: {
      raw: async (req) => {
        const body = (await req.json()) as { model: string; messages: { role: string; content: { type: string; text?: string }[] | string }[] };
        const first = body.messages[0]!.content;
        const session = /bench session (\d+)/.exec(typeof first === "string" ? first : (first[0]?.text ?? ""))?.[1];
        const turn = body.messages.filter((m) => m.role === "assistant").length;
        const blocks = turn < SERVER_TOOL_TURNS ? [{ type: "tool_use" as const, name: "bash", input: { command: `echo ${turn + 1}` } }] : [{ type: "text" as const, text: "done" }];
        const events = replyEvents({ blocks }, { model: body.model, inputTokens: 100, nextId: (prefix) => `${prefix}_${++ids}` });
        sentAt.set(`${session}:${turn}`, performance.now());
        return new Response(events.map(encodeSse).join(""), { headers: { "content-type": "text/event-stream" } });
      },
    },
  });
  const server = await startServer(bin, { ...env, ANTHROPIC_BASE_URL: fake.url }, ["--allow", "bash(echo *)"]);
  try {
    const delays: number[] = [];
    const start = performance.now();
    const one = async (k: number) => {
      const created = await server.call("POST", "/sessions", {});
      const { id } = (await created.json()) as { id: string };
      const sse = sseReader(await server.call("GET", `/sessions/${id}/events`));
      const accepted = await server.call("POST", `/sessions/${id}/prompt`, { text: `bench session ${k}: run the echoes` });
      if (accepted.status !== 202) throw new Error(`prompt ${k}: ${accepted.status} ${await accepted.text()}`);
      let turn = 0;
      const events = await sse.until((e) => {
        if (e.event === "assistant") delays.push(performance.now() - sentAt.get(`${k}:${turn++}`)!);
        return e.event === "result";
      });
      await sse.close();
      const result = events.at(-1)!.data;
      if (result.type !== "result" || result.status !== "success" || turn !== SERVER_TOOL_TURNS + 1) {
        throw new Error(`session ${k}: ${JSON.stringify(result)} after ${turn} turns`);
      }
    };
    await Promise.all(Array.from({ length: SERVER_SESSIONS }, (_, k) => one(k)));
    const totalMs = performance.now() - start;
    const peakBytes = await procMemory(server.pid, "VmHWM");
    const sorted = [...delays].sort((a, b) => a - b);
    const result = { totalMs, medianMs: median(delays), p99Ms: sorted[Math.ceil(sorted.length * 0.99) - 1]!, peakBytes };
    console.error(
      `server load: ${SERVER_SESSIONS} x ${SERVER_TOOL_TURNS + 1} turns in ${totalMs.toFixed(0)} ms, reply->SSE median ${result.medianMs.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms (${delays.length} turns), peak ${(peakBytes / 2 ** 20).toFixed(1)} MiB`,
    );
    return result;
  } finally {
    await server.stop();
    await fake.close();
  }
}

/** An idle server: its RSS once listening, and the CPU time it uses over 2 s with nothing to do. */
export async function serverIdle(bin: string, env: Record<string, string>): Promise<ServerIdle> {
  const server = await startServer(bin, env);
  try {
    const rssBytes = await procMemory(server.pid, "VmRSS");
    const before = await procCpuTicks(server.pid);
    await Bun.sleep(2_000); // the measured interval itself, not a wait for state
    const ticks = (await procCpuTicks(server.pid)) - before;
    const tick = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;
    const result = { rssBytes, cpuMs: (ticks * 1000) / tick };
    console.error(`idle server: ${(rssBytes / 2 ** 20).toFixed(1)} MiB RSS, ${ticks} ticks (${result.cpuMs} ms CPU) over 2 s`);
    return result;
  } finally {
    await server.stop();
  }
}

export function serverRows(load: ServerLoad, idle: ServerIdle): Row[] {
  return [
    {
      figure: `${SERVER_SESSIONS} sessions x ${SERVER_TOOL_TURNS + 1} turns through the server: total / median / p99 reply->SSE delay / peak memory (VmHWM)`,
      shown: `${load.totalMs.toFixed(0)} ms / ${load.medianMs.toFixed(2)} ms / ${load.p99Ms.toFixed(2)} ms / ${(load.peakBytes / 2 ** 20).toFixed(1)} MiB`,
    },
    { figure: "idle server: memory (RSS after start), CPU over 2 s", shown: `${(idle.rssBytes / 2 ** 20).toFixed(1)} MiB, ${idle.cpuMs.toFixed(0)} ms` },
  ];
}
