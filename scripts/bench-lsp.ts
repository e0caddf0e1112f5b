// Language servers' figures (issue 35): an edit's diagnostics on a warm typescript-language-server,
// rein's client (sync + diagnostics, as after an edit) against a bare vscode-jsonrpc client's
// time from didChange to the server's publication, alternating, in one run; and the one-shot with
// a language server configured but no file of its language touched, against none configured.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import type { FakeServer } from "../test/fake/server.ts";
import { LspHub } from "../src/lsp/hub.ts";
import { lspConfigs } from "../src/lsp/config.ts";
import { benchEnv } from "./bench-proc.ts";
import type { Row } from "./bench-report.ts";
import { median, runCommand, RUNS } from "./bench-run.ts";

const ROOT = resolve(import.meta.dir, "..");
const SERVER = join(ROOT, "node_modules/.bin/typescript-language-server");
const ENTRY = { command: SERVER, args: ["--stdio"], extensionToLanguage: { ".ts": "typescript" } };
const GOOD = "export const n: number = 1;\n";
const BAD = "export const n: number = 'one';\n";

export type LspFigures = { bareMs: number; reinMs: number; oneShotNoneMs: number; oneShotLspMs: number };

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "rein-bench-lsp-"));
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, ".git"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(join(ROOT, "node_modules/typescript-5"), join(dir, "node_modules/typescript"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }));
  writeFileSync(join(dir, "src/a.ts"), GOOD);
  return dir;
}

/** A bare client: didChange, then the server's publication for the file. */
async function bareClient(dir: string) {
  const proc = spawn(SERVER, ["--stdio"], { cwd: dir, stdio: ["pipe", "pipe", "ignore"] });
  const c = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const uri = pathToFileURL(join(dir, "src/a.ts")).href;
  let wake: ((version: number) => void) | undefined;
  c.onNotification("textDocument/publishDiagnostics", (p: { uri: string; version?: number }) => {
    if (p.uri === uri) wake?.(p.version ?? -1);
  });
  c.onRequest(() => null);
  c.listen();
  const root = pathToFileURL(dir).href;
  await c.sendRequest("initialize", { processId: process.pid, rootUri: root, workspaceFolders: [{ uri: root, name: "b" }], capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } } });
  await c.sendNotification("initialized", {});
  let version = 1;
  const published = (v: number) => new Promise<void>((done) => (wake = (got) => (got === -1 || got >= v) && done()));
  const first = published(1);
  await c.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version, text: GOOD } });
  await first;
  return {
    async change(text: string): Promise<number> {
      version++;
      const start = performance.now();
      const got = published(version);
      await c.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
      await got;
      return performance.now() - start;
    },
    close: () => proc.kill("SIGKILL"),
  };
}

/** rein's client, as the after-edit handler drives it: write the file, sync it, wait for its diagnostics. */
async function reinClient(dir: string) {
  const file = join(dir, "src/a.ts");
  const hub = new LspHub({ configs: lspConfigs([{ file: "bench", scope: "user", servers: { typescript: ENTRY } }], true), root: dir, env: { PATH: process.env.PATH ?? "" }, logDir: join(dir, "logs"), waitMs: 30_000 });
  const once = async (text: string) => {
    writeFileSync(file, text);
    const start = performance.now();
    const got = await hub.clientFor(file, Date.now() + 30_000);
    if (!got || "problem" in got) throw new Error(`typescript-language-server did not start: ${got && got.problem}`);
    const { version, since } = await hub.sync(got.client, file, got.languageId);
    const found = await got.client.diagnostics(file, version, since, 30_000);
    if (!found) throw new Error("no diagnostics within 30 s");
    return performance.now() - start;
  };
  await once(GOOD);
  return { change: once, close: () => hub.kill() };
}

export async function lspFigures(bin: string, fake: FakeServer): Promise<LspFigures | undefined> {
  const dir = scratch();
  try {
    const bare = await bareClient(dir).catch(() => undefined);
    if (!bare) return undefined; // no typescript-language-server: the rows say so
    const rein = await reinClient(dir);
    const bareRuns: number[] = [];
    const reinRuns: number[] = [];
    for (let i = 0; i < Math.max(10, RUNS); i++) {
      const text = i % 2 ? GOOD : BAD;
      bareRuns.push(await bare.change(text));
      reinRuns.push(await rein.change(text));
    }
    bare.close();
    rein.close();
    // One-shot with a server configured that the run never needs, against none.
    const home = join(dir, "home");
    const env = benchEnv(home, fake.url);
    const none = join(home, "none");
    mkdirSync(join(none, ".git"), { recursive: true });
    mkdirSync(join(home, "config"), { recursive: true });
    const configured = { ...env, REIN_CONFIG_DIR: join(home, "config-lsp") };
    mkdirSync(configured.REIN_CONFIG_DIR, { recursive: true });
    writeFileSync(join(configured.REIN_CONFIG_DIR, "config.json"), JSON.stringify({ lsp: { typescript: ENTRY } }));
    const ok = () => fake.script({ reply: [{ type: "text", text: "ok" }] });
    const noneRuns: number[] = [];
    const lspRuns: number[] = [];
    ok();
    await runCommand([bin, "-p", "say ok"], env, none);
    for (let i = 0; i < RUNS; i++) {
      ok();
      noneRuns.push((await runCommand([bin, "-p", "say ok"], env, none)).ms);
      ok();
      lspRuns.push((await runCommand([bin, "-p", "say ok"], configured, none)).ms);
    }
    return { bareMs: median(bareRuns), reinMs: median(reinRuns), oneShotNoneMs: median(noneRuns), oneShotLspMs: median(lspRuns) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function lspRows(f: LspFigures | undefined): Row[] {
  if (!f) return [{ figure: "language servers: typescript-language-server is not installed (bun install)", shown: "skipped" }];
  const bare = { name: "a bare LSP client's didChange-to-diagnostics", value: f.bareMs, unit: "ms" as const };
  return [
    { figure: "floor: a bare vscode-jsonrpc client, didChange to typescript-language-server's diagnostics (warm)", shown: `${f.bareMs.toFixed(1)} ms` },
    { figure: "an edit's diagnostics through rein's client (sync + wait), warm server", shown: `${f.reinMs.toFixed(1)} ms`, value: f.reinMs, floor: bare, target: { ratio: 1.5 } },
    {
      figure: "one-shot with a language server configured, no file of its language touched",
      shown: `${f.oneShotLspMs.toFixed(1)} ms`,
      value: f.oneShotLspMs,
      floor: { name: "the one-shot with none configured", value: f.oneShotNoneMs, unit: "ms" },
      target: { ratio: 1.02 },
    },
  ];
}

if (import.meta.main) {
  const { startFakeAnthropic } = await import("../test/fake/server.ts");
  const fake = await startFakeAnthropic();
  const figures = await lspFigures(join(ROOT, "dist/rein"), fake);
  console.log(JSON.stringify(figures));
  await fake.close();
  process.exit(0);
}
