// What a one-shot loads of plugins/ (rein from source under the preload that records each module of
// src/ as it loads, test/support/trace-modules.ts, against the fake model): with nothing installed,
// only active.ts (which looks for a plugins folder and installed.json) and at most the tiny plugin-env.ts;
// with an installed plugin whose index is written, the reading, but not the readers of a plugin's
// folder, its manifest and their schemas, which only a plugin the index lacks needs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startFakeAnthropic, type FakeServer } from "../../fake/server.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { KIT } from "./plugin-kit.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const READERS = ["src/plugins/read-plugin.ts", "src/plugins/plugin-index.ts", "src/plugins/manifest.ts", "src/plugins/entry-manifest.ts"];

let fake: FakeServer;
let dir: TempDir;
beforeAll(async () => {
  fake = await startFakeAnthropic({ repeat: { reply: [{ type: "text", text: "ok" }] } });
  dir = tempDir("rein-lazy-plugins-");
});
afterAll(async () => {
  await fake.close();
  dir.remove();
});

function env(home: string, extra: Record<string, string> = {}) {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, REIN_CONFIG_DIR: join(home, "config"), REIN_DATA_DIR: join(home, "data"), ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.url, ...extra };
}

/** The modules of src/plugins/ that `rein ARGS` loaded in `home`. */
async function loaded(home: string, ...args: string[]): Promise<string[]> {
  const trace = join(home, "trace.txt");
  writeFileSync(trace, "");
  const proc = Bun.spawn([process.execPath, "--preload", join(ROOT, "test/support/trace-modules.ts"), join(ROOT, "src/main.ts"), ...args], {
    cwd: join(home, "work"),
    env: env(home, { REIN_TRACE_MODULES: trace }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, out: out.trim(), err: code === 0 ? "" : err }).toEqual({ code: 0, out: args[0] === "-p" ? "ok" : out.trim(), err: "" });
  return readFileSync(trace, "utf8")
    .split("\n")
    .filter((path) => path.includes("/src/plugins/"))
    .map((path) => path.slice(ROOT.length + 1))
    .sort();
}

function home(name: string): string {
  const path = join(dir.path, name);
  mkdirSync(join(path, "work", ".git"), { recursive: true });
  return path;
}

test("with no plugin, a one-shot loads nothing of plugins/ but active.ts (and at most the tiny plugin-env.ts)", async () => {
  const modules = await loaded(home("none"), "-p", "say ok");
  expect(modules).toContain("src/plugins/active.ts");
  expect(modules.filter((m) => m !== "src/plugins/active.ts" && m !== "src/plugins/plugin-env.ts")).toEqual([]);
}, 60_000);

test("with an installed plugin, the first run reads the copy; the next reads the index and loads no reader of a plugin's folder", async () => {
  const h = home("one");
  await loaded(h, "plugin", "install", KIT, "--yes");
  const first = await loaded(h, "-p", "say ok");
  expect(first).toEqual(expect.arrayContaining(["src/plugins/load-active.ts", "src/plugins/plugin-index.ts"]));
  const next = await loaded(h, "-p", "say ok");
  expect(next).toContain("src/plugins/load-active.ts");
  expect(next.filter((m) => READERS.includes(m))).toEqual([]);
}, 60_000);
