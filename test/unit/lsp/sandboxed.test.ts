// A language server with `"sandbox": true` (or under sandbox "on") runs in the kernel sandbox the
// hub gives it: it can work in the workspace, cannot write outside it, and reads the masked paths
// (credentials, .env files) as empty, as a read-only command would. Where bubblewrap does not work
// the server is not started, and its files say why.
import { expect, test } from "bun:test";
import { mkdtempSync, existsSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lspConfigs } from "../../../src/lsp/config.ts";
import { LspHub } from "../../../src/lsp/hub.ts";
import { sandboxAvailable } from "../../../src/registry/sandbox.ts";
import { FAKE_LSP, lspCleanup } from "../../support/lsp-rig.ts";

const FAKE = FAKE_LSP;
const { dirs, hubs } = lspCleanup();
const temp = (prefix: string, parent = tmpdir()) => {
  const dir = realpathSync(mkdtempSync(join(parent, prefix)));
  dirs.push(dir);
  return dir;
};

/** What the probe server reports after opening a file, started as `entry` says under a hub with `mode`. */
async function probe(entry: Record<string, unknown>, mode: "on" | "off", files: { write: string | ((root: string) => string); read: string; masked: string[] }) {
  const root = temp("rein-lsp-sandbox-");
  const write = typeof files.write === "string" ? files.write : files.write(root);
  const configs = lspConfigs([{ file: "test", scope: "user", servers: { fake: { command: process.execPath, args: [FAKE, "probe"], extensionToLanguage: { ".x": "x" }, env: { PROBE_WRITE: write, PROBE_READ: files.read }, ...entry } } }], true);
  const hub = new LspHub({ configs, root, env: { PATH: process.env.PATH ?? "" }, logDir: join(root, ".logs"), waitMs: 15_000, sandbox: { mode, network: false, masked: () => files.masked } });
  hubs.push(hub);
  const file = join(root, "a.x");
  writeFileSync(file, "x\n");
  const got = await hub.clientFor(file, Date.now() + 15_000);
  if (!got || "problem" in got) return { root, problem: got ? got.problem : "no server" };
  const { version, since } = await hub.sync(got.client, file, got.languageId);
  const found = await got.client.diagnostics(file, version, since, 15_000);
  return { root, message: found?.[0]?.message ?? "(none)" };
}

const works = sandboxAvailable().ok;

// Outside both the workspace and the temp folder (which the sandbox leaves writable, as for commands).
const OUTSIDE = "/var/tmp";

test.if(works)("sandboxed: no write outside the workspace, a masked file cannot be read; unsandboxed both work", async () => {
  const outside = temp("rein-lsp-outside-", OUTSIDE);
  const secret = join(outside, "credentials");
  writeFileSync(secret, "hunter2");
  const files = { write: join(outside, "escaped.txt"), read: secret, masked: [secret] };
  const boxed = await probe({ sandbox: true }, "off", files);
  expect(boxed.message).toStartWith("write failed: EROFS; read failed: EACCES; pid ");
  expect(existsSync(files.write)).toBe(false);
  // under sandbox "on" every server is boxed, without its own flag
  const byMode = await probe({}, "on", files);
  expect(byMode.message).toStartWith("write failed: EROFS; read failed: EACCES; pid ");
  const free = await probe({}, "off", files);
  expect(free.message).toStartWith('write wrote; read "hunter2"; pid ');
  expect(existsSync(files.write)).toBe(true);
});

test.if(works)("a sandboxed server writes in its workspace and the temp folder", async () => {
  const inside = await probe({ sandbox: true }, "off", { write: (root) => join(root, "made-inside.txt"), read: "/etc/hostname", masked: [] });
  expect(inside.message).toStartWith("write wrote; ");
  expect(existsSync(join(inside.root, "made-inside.txt"))).toBe(true);
  const scratch = join(tmpdir(), `rein-lsp-tmp-${process.pid}.txt`);
  const tmp = await probe({ sandbox: true }, "off", { write: scratch, read: "/etc/hostname", masked: [] });
  expect(tmp.message).toStartWith("write wrote; ");
  rmSync(scratch, { force: true });
});

test.if(!works)("where the sandbox does not work, a sandboxed server is not started and says why", async () => {
  const outside = temp("rein-lsp-outside-");
  const result = await probe({ sandbox: true }, "off", { write: join(outside, "x"), read: "/etc/hostname", masked: [] });
  expect(result.problem).toStartWith("it is to run in the sandbox, which is unavailable here: ");
});
