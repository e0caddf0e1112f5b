// Stdio servers under bubblewrap, against server-filesystem from npm given a folder inside the
// workspace and one outside it: sandboxed, a write outside the workspace fails and a masked
// credential file reads as empty; unsandboxed, both work. A server that must be sandboxed where
// bubblewrap cannot run does not start, and says why.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, sep } from "node:path";
import { sandboxAvailable } from "../../../src/registry/sandbox.ts";
import { call, hub, ROOT } from "./servers.ts";

const FILESYSTEM = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const workspace = mkdtempSync(join(tmpdir(), "rein-mcp-sandbox-"));
// Outside both the workspace and the temp folder (which the sandbox leaves writable). The checkout
// itself may sit in the temp folder (CI clones into /tmp), so the first parent that does not wins.
const tmp = realpathSync(tmpdir());
const outsideParent = [join(homedir(), ".cache"), "/var/tmp", join(ROOT, "node_modules/.cache")].find((dir) => {
  mkdirSync(dir, { recursive: true });
  const real = realpathSync(dir);
  return real !== tmp && !real.startsWith(tmp + sep);
});
if (!outsideParent) throw new Error("sandbox.test: no writable folder outside the temp folder for the 'outside' side");
const outside = mkdtempSync(join(outsideParent, "rein-mcp-outside-"));
const secret = join(workspace, ".env");
writeFileSync(secret, "TOKEN=hunter2\n");
afterAll(() => [workspace, outside].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const filesystem = (sandbox: boolean) => ({ command: "node", args: [FILESYSTEM, workspace, outside], sandbox });
const masks = { mode: "off" as const, network: false, masked: () => [secret] };

test.skipIf(!sandboxAvailable().ok)("sandboxed, a write outside the workspace fails and a masked file reads empty; inside works", async () => {
  await using h = hub({ fs: filesystem(true) }, { cwd: workspace, sandbox: masks });
  const tools = await h.tools();
  expect(h.servers[0]!.state).toBe("connected");
  const inside = await call(tools, "mcp__fs__write_file", { path: join(workspace, "in.txt"), content: "in" });
  expect(inside.isError).toBeFalsy();
  expect(readFileSync(join(workspace, "in.txt"), "utf8")).toBe("in");
  const out = await call(tools, "mcp__fs__write_file", { path: join(outside, "out.txt"), content: "out" });
  expect(out.isError).toBe(true);
  expect(out.output).toMatch(/read-only file system|EROFS/i);
  expect(existsSync(join(outside, "out.txt"))).toBe(false);
  const read = await call(tools, "mcp__fs__read_text_file", { path: secret });
  expect(read.output).not.toContain("hunter2");
  expect(readFileSync(join(h.logDir, "fs.log"), "utf8")).toContain("(in the sandbox)");
}, 30_000);

test("unsandboxed (the session's sandbox off, no \"sandbox\" on the entry), the same server writes outside", async () => {
  await using h = hub({ fs: { command: "node", args: [FILESYSTEM, workspace, outside] } }, { cwd: workspace, sandbox: masks });
  const tools = await h.tools();
  expect((await call(tools, "mcp__fs__write_file", { path: join(outside, "plain.txt"), content: "x" })).isError).toBeFalsy();
  expect(readFileSync(join(outside, "plain.txt"), "utf8")).toBe("x");
  expect((await call(tools, "mcp__fs__read_text_file", { path: secret })).output).toContain("hunter2");
}, 30_000);

test.skipIf(!sandboxAvailable().ok)("the session's sandbox on puts every stdio server under it; \"sandbox\": false on an entry opts out", async () => {
  await using h = hub({ boxed: { command: "node", args: [FILESYSTEM, workspace, outside] }, free: filesystem(false) }, { cwd: workspace, sandbox: { ...masks, mode: "on" } });
  const tools = await h.tools();
  expect((await call(tools, "mcp__boxed__write_file", { path: join(outside, "boxed.txt"), content: "x" })).isError).toBe(true);
  expect((await call(tools, "mcp__free__write_file", { path: join(outside, "free.txt"), content: "x" })).isError).toBeFalsy();
}, 30_000);

test("a server to be sandboxed where bubblewrap cannot run fails with why", async () => {
  // No bwrap on this PATH: the sandbox is unavailable.
  const saved = process.env.PATH;
  process.env.PATH = "/nonexistent";
  try {
    await using h = hub({ fs: { command: process.execPath, args: [FILESYSTEM, workspace], sandbox: true } }, { cwd: workspace, sandbox: masks });
    await h.start();
    expect(h.servers[0]!.state).toBe("failed");
    expect(h.servers[0]!.lastError).toContain("it is to run in the sandbox, which is unavailable here: bubblewrap is not installed");
  } finally {
    process.env.PATH = saved;
  }
}, 30_000);
