// Start-up figures of the compiled binary: `--version`, the one-shot `-p "say ok"` (time and peak
// memory), what its first request carries, the binary's size; beside a compiled one-line program
// built with the same flags.
import { statSync } from "node:fs";
import type { FakeServer, FakeStep } from "../test/fake/server.ts";
import { compileProgram } from "./bench-proc.ts";
import type { Floor, Row } from "./bench-report.ts";
import { measure, measureInTurn, median, peakRss, runCommand, RUNS } from "./bench-run.ts";
import { TARGET } from "./bench-targets.ts";

export type StartupFigures = {
  versionMs: number;
  printerMs: number;
  printerRssMiB: number;
  printerMiB: number;
  oneShotMs: number;
  oneShotMiB: number;
  /** characters of the system prompt and the tools JSON of the first request */
  preamble: number;
  binaryMiB: number;
};

const OK: FakeStep = { reply: [{ type: "text", text: "ok" }] };

export async function startupFigures(bin: string, home: string, env: Record<string, string>, fake: FakeServer): Promise<StartupFigures> {
  const printer = compileProgram(home, "printer", 'console.log("rein 0.0.0");');
  // `--version` is a ratio to the printer: the two run in turn, so both meet the same load (the
  // first seconds after a build, when the kernel writes the new binary out, made a version measured
  // before the printer look 1.65x it, and 0.9x the fastest peer's in the same run).
  const [version, printerRun] = (await measureInTurn(RUNS * 2, [
    ["rein --version", () => runCommand([bin, "--version"], env)],
    ["a compiled program printing one line", () => runCommand([printer], env)],
  ])) as [{ ms: number; rss: number }, { ms: number; rss: number }];
  const oneShot = await measure("rein -p 'say ok'", RUNS, () => {
    fake.script(OK);
    return runCommand([bin, "-p", "say ok"], env);
  });
  const rssRuns: number[] = [];
  for (let i = 0; i < 5; i++) {
    fake.script(OK);
    const rss = await peakRss([bin, "-p", "say ok"], env);
    if (rss) rssRuns.push(rss);
  }
  const printerRss = (await Promise.all([1, 2, 3].map(() => peakRss([printer], env)))).filter((x): x is number => x !== undefined);
  return {
    versionMs: version.ms,
    printerMs: printerRun.ms,
    printerRssMiB: (printerRss.length ? median(printerRss) : 0) / 2 ** 20,
    printerMiB: statSync(printer).size / 2 ** 20,
    oneShotMs: oneShot.ms,
    oneShotMiB: (rssRuns.length ? median(rssRuns) : oneShot.rss) / 2 ** 20,
    preamble: await firstRequestChars(bin, env, fake),
    binaryMiB: statSync(bin).size / 2 ** 20,
  };
}

/** Characters of the system prompt's text (sent as one cache-marked block) and of the tools as JSON. */
export async function firstRequestChars(bin: string, env: Record<string, string>, fake: FakeServer, cwd?: string): Promise<number> {
  fake.reset();
  fake.script(OK);
  await runCommand([bin, "-p", "say ok"], env, cwd);
  const first = fake.requests[0]!.body as { system: string | { text: string }[]; tools: unknown[] };
  const systemText = typeof first.system === "string" ? first.system : first.system.map((b) => b.text).join("");
  return systemText.length + JSON.stringify(first.tools).length;
}

export function startupFloors(s: StartupFigures) {
  return {
    printer: { name: "the one-line program", value: s.printerMs, unit: "ms" },
    printerRss: { name: "the one-line program", value: s.printerRssMiB, unit: "MiB" },
    printerSize: { name: "the one-line program", value: s.printerMiB, unit: "MiB" },
  } satisfies Record<string, Floor>;
}

export function startupRows(s: StartupFigures): Row[] {
  const floors = startupFloors(s);
  return [
    { figure: "`rein --version`", shown: `${s.versionMs.toFixed(1)} ms`, value: s.versionMs, floor: floors.printer, target: { ratio: TARGET.version } },
    { figure: "floor: a compiled Bun program that only prints one line (rein's build flags)", shown: `${s.printerMs.toFixed(1)} ms` },
    { figure: "one-shot `rein -p \"say ok\"`", shown: `${s.oneShotMs.toFixed(1)} ms`, value: s.oneShotMs, floor: floors.printer, target: { ratio: TARGET.oneShot } },
    {
      figure: "one-shot peak memory (max RSS, GNU time)",
      shown: `${s.oneShotMiB.toFixed(1)} MiB`,
      value: s.oneShotMiB,
      floor: floors.printerRss,
      target: { ratio: TARGET.oneShotMemory },
    },
    {
      figure: "carried on every request with the built-in tools: the first request before the conversation (system + tools JSON)",
      shown: `${s.preamble} characters (~${Math.round(s.preamble / 4)} tokens)`,
      value: s.preamble,
      target: { max: 4_900, text: "at most 4,900 characters" },
    },
    { figure: "binary size (dist/rein)", shown: `${s.binaryMiB.toFixed(1)} MiB`, value: s.binaryMiB, floor: floors.printerSize, target: { ratio: TARGET.binary } },
  ];
}
