// `session/load` of a 1,000-message session over ACP: from the request to its response, every
// replayed update before it (250 prompts, each answered with a read, its result and a text; a todo
// list every tenth turn). The agent is started and initialized first; the time is the load alone,
// to the response's line reaching the client (raw lines: no client SDK parses them on the clock).
import * as acp from "@agentclientprotocol/sdk";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Store } from "../src/session/store.ts";
import { startFakeAnthropic } from "../test/fake/server.ts";
import { benchEnv } from "./bench-proc.ts";
import type { Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";

const ID = "s_bench_acp_load";
export const LOAD_MESSAGES = 1000;

function storeSession(home: string, work: string): void {
  const { store } = Store.open(join(home, "data", "rein.db"));
  store.createSession({ id: ID, cwd: work, model: "claude-sonnet-5-5" });
  const usage = { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  store.transaction(() => {
    for (let turn = 0; turn < LOAD_MESSAGES / 4; turn++) {
      const prompt = `question ${turn}: what does src/file-${turn}.ts do?`;
      const user = store.appendEvent(ID, { type: "user", text: prompt });
      store.appendMessage(ID, { role: "user", content: [{ type: "text", text: prompt }] }, user.seq);
      const todo = turn % 10 === 0;
      const call = todo
        ? { type: "tool_use" as const, id: `toolu_${turn}`, name: "todo", input: { todos: [{ content: `look at file ${turn}`, status: "in_progress" }] } }
        : { type: "tool_use" as const, id: `toolu_${turn}`, name: "read", input: { path: `src/file-${turn}.ts` } };
      const content = [{ type: "text" as const, text: "Let me look." }, call];
      const assistant = store.appendEvent(ID, { type: "assistant", content, stop_reason: "tool_use", usage, cost_usd: 0.001, model: "claude-sonnet-5-5" });
      store.appendMessage(ID, { role: "assistant", content }, assistant.seq);
      const output = todo ? "[>] look at file" : `export const value${turn} = ${turn};\n`.repeat(20);
      const metadata = todo ? { todos: call.input.todos } : undefined;
      const end = store.appendEvent(ID, { type: "tool_end", id: call.id, name: call.name, is_error: false, output, truncated: false, ...(metadata ? { metadata } : {}) });
      store.appendMessage(ID, { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: output }] }, end.seq);
      const answer = [{ type: "text" as const, text: `File ${turn} exports one value.` }];
      const done = store.appendEvent(ID, { type: "assistant", content: answer, stop_reason: "end_turn", usage, cost_usd: 0.001, model: "claude-sonnet-5-5" });
      store.appendMessage(ID, { role: "assistant", content: answer }, done.seq);
    }
  });
  store.close();
}

/** Median ms of `session/load` of the stored session in a fresh `rein acp`, request to response. */
export async function acpLoadFigure(bin: string, home: string, runs = 7): Promise<number> {
  const fake = await startFakeAnthropic();
  const env = benchEnv(home, fake.url);
  const work = join(home, "acp-load");
  mkdirSync(join(work, ".git"), { recursive: true });
  storeSession(home, work);
  const samples: number[] = [];
  for (let i = -1; i < runs; i++) {
    const proc = Bun.spawn([bin, "acp"], { env, cwd: work, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
    const send = (message: Record<string, unknown>) => {
      proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
      void proc.stdin.flush();
    };
    // Raw lines, timed as they arrive: the figure is the agent's, not a client SDK's parsing of 1,500 updates.
    let updates = 0;
    const answers = new Map<number, () => void>();
    let answered = 0;
    const answer = (id: number) => new Promise<void>((resolve) => answers.set(id, resolve));
    void (async () => {
      const decoder = new TextDecoder();
      let rest = "";
      for await (const chunk of proc.stdout) {
        const parts = (rest + decoder.decode(chunk, { stream: true })).split("\n");
        rest = parts.pop()!;
        for (const line of parts) {
          if (line.startsWith('{"jsonrpc":"2.0","method":"session/update"')) updates++;
          else if (line.includes('"result"')) {
            answered = performance.now();
            const id = (JSON.parse(line) as { id: number }).id;
            answers.get(id)?.();
          }
        }
      }
    })();
    const initialized = answer(1);
    send({ id: 1, method: "initialize", params: { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} } });
    await initialized;
    const loaded = answer(2);
    const start = performance.now();
    send({ id: 2, method: "session/load", params: { sessionId: ID, cwd: work, mcpServers: [] } });
    await loaded;
    const ms = answered - start;
    void proc.stdin.end();
    await proc.exited;
    if (updates < LOAD_MESSAGES) throw new Error(`rein acp: session/load replayed ${updates} updates for ${LOAD_MESSAGES} messages`);
    if (i >= 0) samples.push(ms);
  }
  await fake.close();
  const ms = median(samples);
  console.error(`acp session/load of ${LOAD_MESSAGES} messages: ${ms.toFixed(1)} ms (runs: ${samples.map((s) => s.toFixed(0)).join(", ")})`);
  return ms;
}

export function acpLoadRows(ms: number): Row[] {
  return [
    {
      figure: `ACP session/load of a ${LOAD_MESSAGES.toLocaleString("en")}-message session (tool calls, results, plans): request to response, every update replayed before it`,
      shown: `${ms.toFixed(1)} ms`,
      value: ms,
      target: { max: 200, text: "within 200 ms" },
    },
  ];
}
