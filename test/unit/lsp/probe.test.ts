// `rein doctor`'s look at the language servers, each started for real and stopped: one that starts,
// one that is not installed, one that never answers initialize, and a config entry that is wrong.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { lspConfigs } from "../../../src/lsp/config.ts";
import { probeServers } from "../../../src/lsp/probe.ts";

const FAKE = resolve(import.meta.dir, "../../fake/fake-lsp.ts");
const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-lsp-probe-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const configs = (servers: Record<string, unknown>) => lspConfigs([{ file: "/conf/config.json", scope: "user", servers }], true);
const env = { PATH: process.env.PATH ?? "" };

test("each server: started and stopped, or the reason it cannot run, naming where it is configured", async () => {
  const probes = await probeServers(
    configs({
      good: { command: process.execPath, args: [FAKE, "ok"], extensionToLanguage: { ".x": "x", ".y": "x", ".z": "zed" } },
      absent: { command: "/nonexistent/language-server", extensionToLanguage: { ".x": "x" } },
    }),
    root,
    env,
    join(root, "logs"),
    20_000,
  );
  expect(probes).toEqual([
    { name: "good", ok: true, detail: `starts (x, zed; ${process.execPath}, from /conf/config.json)` },
    { name: "absent", ok: false, detail: "/nonexistent/language-server is not installed (not found on PATH) (from /conf/config.json)" },
  ]);
  // each server's log is kept under its name
  expect(readFileSync(join(root, "logs", "good.log"), "utf8")).toContain(`${process.execPath} ${FAKE} ok`);
});

test("a server that never answers initialize is bounded by the probe's wait", async () => {
  const [mute] = await probeServers(configs({ mute: { command: process.execPath, args: [FAKE, "noinit"], extensionToLanguage: { ".m": "m" } } }), root, env, join(root, "logs"), 1500);
  expect(mute).toEqual({ name: "mute", ok: false, detail: "it did not answer initialize within 1.5 s (from /conf/config.json)" });
});

test("a config entry with a problem is reported as the config's problem, and nothing is started", async () => {
  const [probe] = await probeServers(configs({ broken: { args: ["--stdio"] } }), root, env, join(root, "logs-broken"));
  expect(probe!.ok).toBe(false);
  expect(probe!.detail).toStartWith("/conf/config.json: ");
  expect(existsSync(join(root, "logs-broken"))).toBe(false);
});

test("no servers, no probes", async () => {
  expect(await probeServers([], root, env, join(root, "logs"))).toEqual([]);
});
