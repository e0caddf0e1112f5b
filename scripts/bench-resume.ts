// Resuming a long session: `rein -c -p` on a session of 10,000 messages, from start to its first
// request arriving at the fake model.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Store } from "../src/session/store.ts";
import { startFakeAnthropic } from "../test/fake/server.ts";
import { benchEnv } from "./bench-proc.ts";
import type { Floor, Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";
import { TARGET } from "./bench-targets.ts";

/** Time from starting `rein -c -p` on a session of 10,000 messages to its request arriving at the fake model. */
export async function resumeLarge(bin: string, home: string): Promise<number> {
  // A fake of its own: the shared one holds every earlier request's body, and its garbage would
  // delay the handler that notes the arrival.
  const fake = await startFakeAnthropic();
  const env = benchEnv(home, fake.url);
  const work = join(home, "large-session");
  mkdirSync(join(work, ".git"), { recursive: true });
  const { store } = Store.open(join(home, "data", "rein.db"));
  store.createSession({ id: "s_bench_large", cwd: work, model: "claude-sonnet-5-5" });
  store.transaction(() => {
    for (let i = 0; i < 10_000; i++) {
      const text = i % 2 ? `answer ${i}` : `question ${i}`;
      const event = store.appendEvent("s_bench_large", i % 2 ? { type: "text_delta", text } : { type: "user", text });
      store.appendMessage("s_bench_large", { role: i % 2 ? "assistant" : "user", content: [{ type: "text", text }] }, event.seq);
    }
  });
  store.updateSession("s_bench_large", {}, Date.now() + 60_000); // the latest session in that folder
  store.close();
  const samples: number[] = [];
  for (let i = 0; i < 9; i++) {
    fake.script({ reply: [{ type: "text", text: "ok" }] });
    const seen = fake.requests.length;
    Bun.gc(true);
    const start = performance.now();
    const proc = Bun.spawn([bin, "-c", "-p", "next"], { cwd: work, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const arrived = new Promise<number>((resolve) => {
      // When the request arrived at the fake (its headers), not when the fake finished parsing its body.
      const check = () => (fake.requests.length > seen ? resolve(fake.requests[seen]!.arrivedAt - start) : setTimeout(check, 0.5));
      check();
    });
    const [ms, code] = await Promise.all([arrived, proc.exited]);
    if (code !== 0) throw new Error(`resume run exited ${code}: ${await new Response(proc.stderr).text()}`);
    samples.push(ms);
  }
  await fake.close();
  const ms = median(samples);
  console.error(`resume of 10,000 messages: ${ms.toFixed(1)} ms to the first request (runs: ${samples.map((s) => s.toFixed(0)).join(", ")})`);
  return ms;
}

export function resumeRows(ms: number, printer: Floor): Row[] {
  return [
    {
      figure: "resuming a session of 10,000 messages (`rein -c -p`): start to the first new request",
      shown: `${ms.toFixed(1)} ms`,
      value: ms,
      floor: printer,
      target: { ratio: TARGET.resume },
    },
  ];
}
