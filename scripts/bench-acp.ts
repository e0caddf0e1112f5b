// `rein acp` against print mode, interleaved in the same run: one prompt answered "ok" by the fake,
// from spawning rein to its exit (ACP: initialize, session/new, session/prompt, stdin closed, exit), and
// the warm round-trip of a second prompt in the same ACP session.
import * as acp from "@agentclientprotocol/sdk";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FakeServer } from "../test/fake/server.ts";
import type { Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";

export type AcpFigures = { acpMs: number; printMs: number; warmPromptMs: number };

async function printRun(bin: string, env: Record<string, string>, cwd: string): Promise<number> {
  const start = performance.now();
  const proc = Bun.spawn([bin, "-p", "say ok"], { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited, new Response(proc.stdout).text()]);
  if (code !== 0) throw new Error(`rein -p exited ${code}: ${err}`);
  return performance.now() - start;
}

async function acpRun(bin: string, env: Record<string, string>, cwd: string): Promise<{ total: number; warm: number }> {
  const start = performance.now();
  const proc = Bun.spawn([bin, "acp"], { env, cwd, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const input = new WritableStream<Uint8Array>({
    write(chunk) {
      proc.stdin.write(chunk);
      void proc.stdin.flush();
    },
  });
  const conn = acp.client({ name: "bench" }).connect(acp.ndJsonStream(input, proc.stdout));
  await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  const first = await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "say ok" }] });
  if (first.stopReason !== "end_turn") throw new Error(`rein acp: stopReason ${first.stopReason}`);
  const untilAnswer = performance.now() - start;
  const warmStart = performance.now();
  await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "say ok" }] });
  const warm = performance.now() - warmStart;
  // Print mode's figure runs to the process's exit, so this one does too (the warm prompt left out).
  const exitStart = performance.now();
  void proc.stdin.end();
  await proc.exited;
  return { total: untilAnswer + (performance.now() - exitStart), warm };
}

/** Runs in a workspace of its own; `fake` gets the "ok" answers scripted here. */
export async function acpFigures(bin: string, env: Record<string, string>, fake: FakeServer, runs: number): Promise<AcpFigures> {
  const cwd = mkdtempSync(join(tmpdir(), "rein-bench-acp-"));
  mkdirSync(join(cwd, ".git"));
  const samples = { acp: [] as number[], print: [] as number[], warm: [] as number[] };
  for (let i = -1; i < runs; i++) {
    fake.script(OK, OK, OK);
    const a = await acpRun(bin, env, cwd);
    const p = await printRun(bin, env, cwd);
    if (i < 0) continue; // warm the page cache
    samples.acp.push(a.total);
    samples.warm.push(a.warm);
    samples.print.push(p);
  }
  rmSync(cwd, { recursive: true, force: true });
  return { acpMs: median(samples.acp), printMs: median(samples.print), warmPromptMs: median(samples.warm) };
}

const OK = { reply: [{ type: "text" as const, text: "ok" }] };

/** The ACP rows: the round-trip as a ratio to print mode, and the warm prompt on its own. */
export function acpRows(a: AcpFigures): Row[] {
  return [
    {
      figure: "an ACP prompt round-trip (spawn `rein acp`, initialize, session/new, session/prompt to its stopReason, stdin closed to exit) / the same prompt in print mode (spawn to exit), interleaved",
      shown: `${a.acpMs.toFixed(1)} ms / ${a.printMs.toFixed(1)} ms = ${(a.acpMs / a.printMs).toFixed(2)}x`,
      value: a.acpMs / a.printMs,
      target: { max: 1.2, text: "at most 1.2x print mode" },
    },
    { figure: "a second prompt in the same ACP session, request to stopReason", shown: `${a.warmPromptMs.toFixed(1)} ms` },
  ];
}
