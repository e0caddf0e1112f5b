// Hot reload of a user tool, in process: the registry notices a changed file and the new version runs.
import { join } from "node:path";
import { ToolRegistry } from "../src/registry/registry.ts";
import { median } from "./bench-run.ts";

/** Median time for the registry to notice a changed tool file and have the new version usable. */
export async function toolReload(home: string, runs: number): Promise<number> {
  const dir = join(home, "reload-tools");
  const source = (n: number) => `import * as v from "valibot";
import { defineTool } from "rein/tool";
export default defineTool({ name: "probe", description: "Probe.", input: v.object({}), run: () => "v${n}" });
`;
  await Bun.write(join(dir, "probe.ts"), source(0));
  const registry = new ToolRegistry([], [{ dir, source: "user" }]);
  await registry.tools();
  const samples: number[] = [];
  for (let i = 1; i <= runs; i++) {
    await Bun.write(join(dir, "probe.ts"), source(i));
    const start = performance.now();
    const [probe] = await registry.tools();
    const output = await probe!.run({}, {} as never);
    samples.push(performance.now() - start);
    if (output !== `v${i}`) throw new Error(`reload ${i} gave ${String(output)}`);
  }
  const ms = median(samples);
  console.error(`tool reload: ${ms.toFixed(2)} ms median (${runs} runs)`);
  return ms;
}

if (import.meta.main) {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const home = mkdtempSync(join((await import("node:os")).tmpdir(), "rein-bench-reload-"));
  await toolReload(home, Number(process.env.BENCH_RUNS ?? 21));
  rmSync(home, { recursive: true, force: true });
}
