// The hub with a real process: our own fake language server (test/fake/fake-lsp.ts) started by the
// hub as a session would, its diagnostics read after a change, a crash restarted once and then
// left off, and a server that never publishes bounded by the wait.
import { expect, test } from "bun:test";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lspConfigs } from "../../../src/lsp/config.ts";
import { LspHub } from "../../../src/lsp/hub.ts";
import { FAKE_LSP, lspCleanup } from "../../support/lsp-rig.ts";

const FAKE = FAKE_LSP;
const { dirs, hubs } = lspCleanup();

function hub(mode: string, waitMs = 10_000) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-lsp-")));
  dirs.push(root);
  const configs = lspConfigs([{ file: "test", scope: "user", servers: { fake: { command: process.execPath, args: [FAKE, mode], extensionToLanguage: { ".x": "x" } } } }], true);
  const h = new LspHub({ configs, root, env: { PATH: process.env.PATH ?? "" }, logDir: join(root, "logs"), waitMs });
  hubs.push(h);
  return { h, file: (name: string, text: string) => (writeFileSync(join(root, name), text), join(root, name)) };
}

async function diagnose(h: LspHub, file: string, waitMs = 10_000) {
  const got = await h.clientFor(file, Date.now() + 10_000);
  if (!got || "problem" in got) return got;
  const { version, since } = await h.sync(got.client, file, got.languageId);
  return got.client.diagnostics(file, version, since, waitMs);
}

test("a change's diagnostics come from the server after that change", async () => {
  const { h, file } = hub("ok");
  const f = file("a.x", "fine\n");
  expect(await diagnose(h, f)).toEqual([]);
  file("a.x", "fine\nBAD here\n");
  expect(await diagnose(h, f)).toMatchObject([{ range: { start: { line: 1, character: 0 } }, message: "BAD is not allowed" }]);
  expect(h.status()).toMatchObject([{ name: "fake", state: "running", languages: ["x"] }]);
  expect(await h.clientFor(join(h.status()[0]!.source, "a.md"), Date.now() + 1000)).toBeUndefined();
});

test("a server that crashes is started again once, then left off with the reason", async () => {
  const { h, file } = hub("crash");
  const f = file("a.x", "one\n");
  expect(await diagnose(h, f)).toEqual([]); // opened: the first start
  file("a.x", "two\n");
  expect(await diagnose(h, f)).toBeUndefined(); // the change kills it
  expect(await diagnose(h, f)).toEqual([]); // started again, the file opened anew
  file("a.x", "three\n");
  await diagnose(h, f); // killed again
  const third = await diagnose(h, f);
  expect(third).toMatchObject({ name: "fake", problem: expect.stringContaining("it stopped twice (it exited with code 3)") });
  expect(h.status()[0]).toMatchObject({ state: "failed" });
});

test("a server that never publishes is bounded by the wait", async () => {
  const { h, file } = hub("silent");
  const f = file("a.x", "BAD\n");
  expect(await diagnose(h, f, 300)).toBeUndefined();
  expect(h.status()[0]).toMatchObject({ state: "running" });
});
