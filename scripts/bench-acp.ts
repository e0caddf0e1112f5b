// `rein acp` against print mode, interleaved in the same run: one prompt answered "ok" by the fake,
// from spawning rein to its exit (ACP: initialize, session/new, session/prompt, stdin closed, exit), and
// the warm round-trip of a second prompt in the same ACP session; and how soon an edit of a 1,000-line
// file asks with its whole-file diff: from the call's `tool_call` update to its
// `session/request_permission`, as their lines reach the client (before its SDK parses them).
import * as acp from "@agentclientprotocol/sdk";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FakeServer } from "../test/fake/server.ts";
import type { Row } from "./bench-report.ts";
import { median } from "./bench-run.ts";

export type AcpFigures = { acpMs: number; printMs: number; warmPromptMs: number; permissionMs: number };

const BIG_LINES = 1000;

/** One edit of a 1,000-line file, rejected: ms from its tool_call update to its permission request (which must carry the diff). */
async function permissionRun(bin: string, env: Record<string, string>, cwd: string): Promise<number> {
  const proc = Bun.spawn([bin, "acp"], { env, cwd, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const input = new WritableStream<Uint8Array>({
    write(chunk) {
      proc.stdin.write(chunk);
      void proc.stdin.flush();
    },
  });
  let called: number | undefined;
  let asked: number | undefined;
  let diff = false;
  // Timed as the lines arrive, before the client's SDK parses and checks them.
  const [forClient, forClock] = proc.stdout.tee();
  void (async () => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of forClock) {
      const parts = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = parts.pop()!;
      for (const line of parts) {
        if (called === undefined && line.includes('"sessionUpdate":"tool_call"') && line.includes("toolu_big")) called = performance.now();
        if (asked === undefined && line.includes('"method":"session/request_permission"')) asked = performance.now();
      }
    }
  })();
  const conn = acp
    .client({ name: "bench" })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      const first = params.toolCall.content?.[0];
      diff = first?.type === "diff" && first.oldText?.split("\n").length === BIG_LINES + 1;
      return { outcome: { outcome: "selected", optionId: "reject_once" } };
    })
    .connect(acp.ndJsonStream(input, forClient));
  await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "edit big.txt" }] });
  void proc.stdin.end();
  await proc.exited;
  if (called === undefined || asked === undefined || !diff) throw new Error(`rein acp: the edit did not ask with the whole file's diff (tool_call ${called !== undefined}, asked ${asked !== undefined}, diff ${diff})`);
  return asked - called;
}

// The file is read first: rein does not ask for an edit of a file the model has not read (it would be refused).
const READ = { reply: [{ type: "tool_use" as const, id: "toolu_read", name: "read", input: { path: "big.txt" } }] };
const EDIT = {
  reply: [{ type: "tool_use" as const, id: "toolu_big", name: "edit", input: { path: "big.txt", old_string: "line 500 of the file\n", new_string: "line 500, changed\n" } }],
};

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
  writeFileSync(join(cwd, "big.txt"), Array.from({ length: BIG_LINES }, (_, i) => `line ${i + 1} of the file\n`).join(""));
  const samples = { acp: [] as number[], print: [] as number[], warm: [] as number[], permission: [] as number[] };
  for (let i = -1; i < runs; i++) {
    fake.script(OK, OK, OK);
    const a = await acpRun(bin, env, cwd);
    const p = await printRun(bin, env, cwd);
    fake.script(READ, EDIT, OK);
    const asked = await permissionRun(bin, env, cwd);
    if (i < 0) continue; // warm the page cache
    samples.acp.push(a.total);
    samples.warm.push(a.warm);
    samples.print.push(p);
    samples.permission.push(asked);
  }
  rmSync(cwd, { recursive: true, force: true });
  return { acpMs: median(samples.acp), printMs: median(samples.print), warmPromptMs: median(samples.warm), permissionMs: median(samples.permission) };
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
    {
      figure: "an ACP edit of a 1,000-line file: its tool_call update to its session/request_permission carrying the whole-file diff, as the lines reach the client",
      shown: `${a.permissionMs.toFixed(2)} ms`,
      value: a.permissionMs,
      target: { max: 5, text: "within 5 ms of the call" },
    },
  ];
}
