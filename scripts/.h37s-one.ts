import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAnthropic } from "../test/fake/server.ts";
import { benchEnv } from "./bench-proc.ts";
import { median, runCommand } from "./bench-run.ts";
const bins = { old: process.argv[2]!, now: process.argv[3]! };
const fake = await startFakeAnthropic();
const res: Record<string, { ms: number[]; cpu: number[] }> = {};
for (let i = 0; i < 11; i++) for (const [name, bin] of Object.entries(bins)) for (const line of ["echo 1", "echo $HOME"]) {
  const home = mkdtempSync(join(tmpdir(), "h37s-one-"));
  fake.script({ reply: [{ type: "tool_use", name: "bash", input: { command: line } }] }, { reply: [{ type: "text", text: "done" }] });
  const s = await runCommand([bin, "-p", "go"], benchEnv(home, fake.url));
  rmSync(home, { recursive: true, force: true });
  const k = `${name} ${line}`; (res[k] ??= { ms: [], cpu: [] }).ms.push(s.ms); res[k].cpu.push(s.cpuMs);
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(18), "wall", median(v.ms).toFixed(1), "cpu", median(v.cpu).toFixed(1));
await fake.close();
