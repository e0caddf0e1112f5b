// npm's and npx's options as the engine reads a real command line (real tree-sitter): nopt's
// prefixes and shorthands, settings that change what runs made opaque, settings npm does not have
// made opaque, and settings naming files turned into read and edit requests (outside the workspace
// too), while everything after `--` or npx's package is the script's.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expandRequests, type EngineContext } from "../../../src/permission/engine.ts";

let root: string;
let work: string;
let ctx: EngineContext;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "rein-npm-")));
  work = join(root, "work");
  mkdirSync(work, { recursive: true });
  ctx = { cwd: work, workspace: work, home: join(root, "home"), reinDirs: [], openDirs: [], searchPath: process.env.PATH ?? "/usr/bin:/bin" };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function requests(line: string) {
  const { requests } = await expandRequests([{ permission: "bash", pattern: line, always: [] }], ctx);
  return requests.map((r) => ({ permission: r.permission, pattern: r.pattern, ...(r.opaque ? { opaque: true, reason: r.reason } : {}) }));
}

test("plain scripts and harmless settings are one clear bash request", async () => {
  for (const line of ["npm test", "npm run build --if-present", "npm --no-audit install", "npm -ws test", "npm -d test", "npm -q test", "npm run lint -- --fix"]) {
    expect(await requests(line)).toEqual([{ permission: "bash", pattern: line }]);
  }
});

test("a setting that chooses what runs makes the line opaque, by its full name, a prefix or a shorthand", async () => {
  expect(await requests("npm --script-shell /bin/evil run x")).toEqual([{ permission: "bash", pattern: "npm --script-shell /bin/evil run x", opaque: true, reason: "npm --script-shell changes what runs" }]);
  // nopt takes a unique prefix for the setting
  expect((await requests("npm --scri=/bin/evil run x"))[0]).toMatchObject({ opaque: true, reason: "npm --script-shell changes what runs" });
  // -C is --prefix: another project's scripts
  expect((await requests("npm -C /elsewhere run build"))[0]).toMatchObject({ opaque: true, reason: "npm --prefix changes what runs" });
  expect((await requests("npm --node-options=--require=/tmp/x.js test"))[0]).toMatchObject({ opaque: true, reason: "npm --node-options changes what runs" });
  expect((await requests("npm --userconfig ./npmrc install"))[0]).toMatchObject({ opaque: true, reason: "npm --userconfig changes what runs" });
});

test("a setting npm does not have, an ambiguous prefix or an unknown shorthand is opaque too: npm would read it as something unseen", async () => {
  expect((await requests("npm --bogus run x"))[0]).toMatchObject({ opaque: true, reason: "npm: npm has no setting --bogus" });
  expect((await requests("npm --sa run x"))[0]).toMatchObject({ opaque: true, reason: "npm: --sa is an ambiguous abbreviation" });
  expect((await requests("npm -xyz test"))[0]).toMatchObject({ opaque: true, reason: "npm has no option -xyz" });
});

test("settings naming files become requests: --cache and --logs-dir are written, --workspace read; outside the workspace asks for it", async () => {
  expect(await requests("npm --cache /tmp/c install")).toEqual([
    { permission: "bash", pattern: "npm --cache /tmp/c install" },
    { permission: "edit", pattern: "/tmp/c" },
    { permission: "external_directory", pattern: "/tmp/c" },
  ]);
  expect(await requests("npm --cache=../outside ci")).toEqual([
    { permission: "bash", pattern: "npm --cache=../outside ci" },
    { permission: "edit", pattern: join(root, "outside") },
    { permission: "external_directory", pattern: join(root, "outside") },
  ]);
  expect(await requests("npm --workspace ../pkg test")).toEqual([
    { permission: "bash", pattern: "npm --workspace ../pkg test" },
    { permission: "read", pattern: join(root, "pkg") },
    { permission: "external_directory", pattern: join(root, "pkg") },
  ]);
  // -w is --workspace: inside the workspace it is a read there, no external request
  expect(await requests("npm -w packages/app test")).toEqual([
    { permission: "bash", pattern: "npm -w packages/app test" },
    { permission: "read", pattern: join(work, "packages/app") },
  ]);
});

test("npx: settings end at the package; what follows is the package's own arguments", async () => {
  expect(await requests("npx --yes cowsay --prefix=/x")).toEqual([{ permission: "bash", pattern: "npx --yes cowsay --prefix=/x" }]);
  expect((await requests("npx --prefix=/x cowsay"))[0]).toMatchObject({ opaque: true, reason: "npx --prefix changes what runs" });
});
