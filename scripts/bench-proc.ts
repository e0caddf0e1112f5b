// What the benchmarks share: the environment of a rein under test, a process's CPU and memory, and
// small compiled programs that show the runtime's own share of a figure.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** rein's environment for a benchmark: its own home, config and data folders, the fake model. */
export function benchEnv(home: string, fakeUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    REIN_CONFIG_DIR: join(home, "config"),
    REIN_DATA_DIR: join(home, "data"),
    ANTHROPIC_API_KEY: "bench-key",
    ANTHROPIC_BASE_URL: fakeUrl,
  };
}

/** A field of /proc/PID/status in bytes (VmRSS, VmHWM). */
export async function procMemory(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(await Bun.file(`/proc/${pid}/status`).text())?.[1];
  if (!kb) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(kb) * 1024;
}

/** utime + stime of a process, in clock ticks of 10 ms (/proc/PID/stat fields 14 and 15). */
export async function procCpuTicks(pid: number): Promise<number> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text();
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // the name may hold spaces; fields from 3 on
  return Number(fields[11]) + Number(fields[12]);
}

/** `source` compiled as rein is (bytecode, minified, ESM) into `home`: a floor for rein's own figures. */
export function compileProgram(home: string, name: string, source: string): string {
  const file = join(home, `${name}.ts`);
  const out = join(home, name);
  writeFileSync(file, source);
  const build = Bun.spawnSync(["bun", "build", "--compile", "--minify", "--bytecode", "--format=esm", file, "--outfile", out], { stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`could not compile ${name}: ${build.stderr.toString()}`);
  return out;
}

/** The first line a `rein --serve` prints on stdout: the URL it listens on. */
export async function servedUrl(proc: { stdout: ReadableStream<Uint8Array>; exited: Promise<number> }): Promise<string> {
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`rein --serve exited before printing its URL (code ${await proc.exited})`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return out.split("\n")[0]!;
}
