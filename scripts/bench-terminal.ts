// The interactive terminal's figures, measured in tmux against the fake model: start to the input
// prompt, CPU while idle at the prompt, and, in a resumed session of 1,000 messages, the time for a
// keystroke to reach the screen and the memory. tmux copies what the pane's program writes into a
// FIFO (pipe-pane), which this script reads as it arrives: no polling of the screen.
import { closeSync, constants, mkdirSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { Store } from "../src/session/store.ts";
import { benchEnv, compileProgram, procCpuTicks, procMemory } from "./bench-proc.ts";
import type { Floor, Row } from "./bench-report.ts";
import { TARGET } from "./bench-targets.ts";
import { median } from "./bench-run.ts";

export type TerminalFigures = {
  /** start to the prompt, less the same measurement of a shell that prints the prompt character */
  startMs: number;
  startRawMs: number;
  startBaselineMs: number;
  /** the same for a compiled Bun program that only prints the prompt: the runtime's own start */
  startFloorMs: number;
  /** CPU while idle at the prompt: in the first seconds, and once Bun's GC timer has slowed down */
  idleEarlyPercent: number;
  idleCpuPercent: number;
  idleSeconds: number;
  keystrokeMs: number;
  keystrokeBaselineMs: number;
  rssBytes: number;
  peakBytes: number;
  messages: number;
};

const SOCKET = `rein-bench-${process.pid}`;
const tmux = (...args: string[]) => {
  const run = Bun.spawnSync(["tmux", "-L", SOCKET, ...args], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`tmux ${args[0]} failed: ${run.stderr.toString()}`);
  return run.stdout.toString();
};

/** Everything the pane's program writes, read from a FIFO through a non-blocking descriptor. */
class PaneOutput {
  private text = "";
  private readonly fd: number;
  constructor(fifo: string) {
    // O_RDWR keeps the FIFO open even when tmux's writer restarts; O_NONBLOCK so reads never block.
    this.fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
  }
  /** Reads what arrived; the length of all output so far. */
  drain(): number {
    const buffer = Buffer.alloc(65_536);
    while (true) {
      let n = 0;
      try {
        n = readSync(this.fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") break;
        throw error;
      }
      if (n <= 0) break;
      this.text += buffer.toString("utf8", 0, n);
      if (n < buffer.length) break;
    }
    return this.text.length;
  }
  /** Waits until the output after `from` contains `needle`; the time it was seen. */
  async waitFor(needle: string, from: number, timeoutMs = 10_000): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      this.drain();
      if (this.text.indexOf(needle, from) >= 0) return performance.now();
      await Bun.sleep(0.25);
    }
    throw new Error(`pane output never showed ${JSON.stringify(needle)}; last output: ${JSON.stringify(this.text.slice(-300))}`);
  }
  get length(): number {
    return this.text.length;
  }
  close(): void {
    closeSync(this.fd);
  }
}

function seedSession(home: string, messages: number): { work: string; id: string } {
  const work = join(home, "terminal-session");
  mkdirSync(join(work, ".git"), { recursive: true });
  const id = "s_bench_terminal";
  const { store } = Store.open(join(home, "data", "rein.db"));
  store.createSession({ id, cwd: work, model: "claude-sonnet-5-5" });
  const answer = (i: number) =>
    `## Step ${i}\n\nI looked at \`src/module${i}.ts\` and changed **two** things:\n\n- the parser now keeps comments\n- the printer wraps at 80 columns\n\n\`\`\`ts\nexport const step${i} = ${i};\n\`\`\`\n`;
  store.transaction(() => {
    for (let i = 0; i < messages; i++) {
      const user = i % 2 === 0;
      const text = user ? `please do step ${i}` : answer(i);
      const event = store.appendEvent(id, user ? { type: "user", text } : { type: "text_delta", text });
      store.appendMessage(id, { role: user ? "user" : "assistant", content: [{ type: "text", text }] }, event.seq);
    }
  });
  store.close();
  return { work, id };
}

/** Milliseconds from typing a character (tmux send-keys) to the program echoing it, median of `n`. */
async function keystrokes(output: PaneOutput, n: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const ch = String.fromCharCode(97 + (i % 26));
    output.drain();
    const from = output.length;
    const start = performance.now();
    tmux("send-keys", "-t", "bench", "-l", ch);
    const seen = await output.waitFor(ch, from);
    samples.push(seen - start);
    await Bun.sleep(20);
  }
  return median(samples);
}

export async function terminalFigures(bin: string, home: string, env: Record<string, string>): Promise<TerminalFigures> {
  const fifo = join(home, "pane.fifo");
  Bun.spawnSync(["mkfifo", fifo]);
  const output = new PaneOutput(fifo);
  const vars = Object.entries({ ...env, TERM: "tmux-256color" })
    .map(([k, v]) => `${k}='${v}'`)
    .join(" ");
  tmux("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", "sleep 600");
  tmux("pipe-pane", "-t", "bench", "-o", `cat > ${fifo}`);
  try {
    const messages = 1_000;
    const { work, id } = seedSession(home, messages);

    // Start to the input prompt: a fresh rein in the pane, timed until its prompt is written; the
    // same for a shell printing the prompt character is what tmux and this script cost.
    const startOf = async (command: string, ready: string) => {
      const starts: number[] = [];
      for (let i = 0; i < 9; i++) {
        output.drain();
        const from = output.length;
        const start = performance.now();
        tmux("respawn-pane", "-k", "-t", "bench", "-c", work, command);
        starts.push((await output.waitFor("›", from)) - start);
        await output.waitFor(ready, from);
        await Bun.sleep(100);
      }
      return median(starts.slice(1));
    };
    const startRawMs = await startOf(`exec env ${vars} ${bin}`, "Ctrl-D exits");
    const startBaselineMs = await startOf(`sh -c 'printf "› ready"; exec sleep 600'`, "ready");
    const startMs = startRawMs - startBaselineMs;
    const floorBin = compileProgram(home, "floor", `require("fs").writeSync(1, "› ready"); setTimeout(() => {}, 600_000);`);
    const startFloorMs = (await startOf(floorBin, "ready")) - startBaselineMs;

    // The baseline of the keystroke measurement itself: tmux and a program that only echoes.
    tmux("respawn-pane", "-k", "-t", "bench", "sh -c 'stty raw -echo; printf ready; exec cat'");
    await output.waitFor("ready", 0);
    const keystrokeBaselineMs = await keystrokes(output, 30);

    // A resumed session of 1,000 messages.
    output.drain();
    const from = output.length;
    tmux("respawn-pane", "-k", "-t", "bench", "-c", work, `exec env ${vars} ${bin} -r ${id}`);
    await output.waitFor("Ctrl-D exits", from);
    const pid = Number(tmux("list-panes", "-t", "bench", "-F", "#{pane_pid}").trim());
    // USER_HZ is 100 on Linux: a tick is 10 ms of CPU.
    const idleShare = async (seconds: number) => {
      const before = await procCpuTicks(pid);
      await Bun.sleep(seconds * 1000);
      return (((await procCpuTicks(pid)) - before) / (seconds * 100)) * 100;
    };
    await Bun.sleep(1000);
    const idleEarlyPercent = await idleShare(5);
    // Bun's GC timer wakes the process every second until the heap has been stable for a while,
    // then every 30 s; rein itself runs no timer at the prompt.
    await Bun.sleep(30_000);
    const idleSeconds = 10;
    const idleCpuPercent = await idleShare(idleSeconds);
    const keystrokeMs = await keystrokes(output, 40);
    const rssBytes = await procMemory(pid, "VmRSS");
    const peakBytes = await procMemory(pid, "VmHWM");
    return { startMs, startRawMs, startBaselineMs, startFloorMs, idleEarlyPercent, idleCpuPercent, idleSeconds, keystrokeMs, keystrokeBaselineMs, rssBytes, peakBytes, messages };
  } finally {
    try {
      tmux("kill-server");
    } catch {
      // already gone
    }
    output.close();
  }
}

/** The interactive terminal's rows (measured in tmux; without tmux they say so). */
export function terminalRows(t: TerminalFigures | undefined, memoryFloor: Floor): Row[] {
  if (!t) return [{ figure: "interactive terminal figures", shown: "not measured: tmux is not installed" }];
  const startFloor: Floor = { name: "the one-line program in tmux", value: t.startFloorMs, unit: "ms" };
  const catFloor: Floor = { name: "`cat`", value: t.keystrokeBaselineMs, unit: "ms" };
  return [
    {
      figure: "terminal: start to the input prompt, in tmux (time to the prompt less the same for `sh` printing it)",
      shown: `${t.startMs.toFixed(1)} ms (${t.startRawMs.toFixed(1)} - ${t.startBaselineMs.toFixed(1)})`,
      value: t.startMs,
      floor: startFloor,
      target: { ratio: TARGET.terminalStart },
    },
    { figure: "floor: the same for a compiled Bun program that only prints the prompt (the runtime's start)", shown: `${t.startFloorMs.toFixed(1)} ms` },
    {
      figure: `terminal: CPU while idle at the prompt, over ${t.idleSeconds} s once Bun's GC timer has slowed (first 5 s after start)`,
      shown: `${t.idleCpuPercent.toFixed(1)}% (${t.idleEarlyPercent.toFixed(1)}%)`,
      value: t.idleCpuPercent,
      target: { max: 0.05, text: "0%" },
    },
    {
      figure: `terminal: a keystroke to the screen in a resumed session of ${t.messages.toLocaleString("en")} messages (tmux send-keys to the echo; the floor: the same for \`cat\`)`,
      shown: `${t.keystrokeMs.toFixed(1)} ms`,
      value: t.keystrokeMs,
      floor: catFloor,
      target: { ratio: TARGET.keystroke },
    },
    {
      figure: "terminal: memory in that session (RSS / peak)",
      shown: `${(t.rssBytes / 2 ** 20).toFixed(1)} MiB / ${(t.peakBytes / 2 ** 20).toFixed(1)} MiB`,
      value: t.peakBytes / 2 ** 20,
      floor: memoryFloor,
      target: { ratio: TARGET.terminalMemory },
    },
  ];
}

if (import.meta.main) {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { startFakeAnthropic } = await import("../test/fake/server.ts");
  const home = mkdtempSync(join(tmpdir(), "rein-bench-tty-"));
  const fake = await startFakeAnthropic();
  try {
    console.log(await terminalFigures(join(import.meta.dir, "../dist/rein"), home, benchEnv(home, fake.url)));
  } finally {
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}
