// What a read-only sandboxed command cannot read: what exists of the credentials denied in every
// mode, rein's own secrets, the workspace's top-level environment files; each once, at its real path.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { maskSource, sandboxMasks } from "../../../src/session/sandbox-masks.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-masks-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("existing credentials, rein's secrets and .env files are masked; templates, missing entries and what a masked folder holds are not", () => {
  const home = join(root, "home");
  const workspace = join(root, "ws");
  const data = join(root, "data");
  const keys = join(root, "keys");
  for (const dir of [join(home, ".aws"), join(home, ".ssh"), keys, workspace, data]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, ".netrc"), "");
  symlinkSync(keys, join(home, ".gnupg")); // a symlinked entry is masked where it leads
  writeFileSync(join(workspace, ".env"), "");
  writeFileSync(join(workspace, ".env.example"), "");
  writeFileSync(join(workspace, "README.md"), "");
  mkdirSync(join(workspace, "packages", "api"), { recursive: true });
  writeFileSync(join(workspace, "packages", "api", ".env.production"), "");
  mkdirSync(join(workspace, "node_modules", "x"), { recursive: true });
  writeFileSync(join(workspace, "node_modules", "x", ".env"), ""); // not searched
  writeFileSync(join(data, "rein.db"), "");
  writeFileSync(join(data, "server-token"), "");
  mkdirSync(join(data, "output"));
  const nested = join(home, ".ssh", "rein"); // a rein folder inside a masked one
  mkdirSync(nested);
  writeFileSync(join(nested, "config.json"), "");

  const masks = sandboxMasks({ home, reinDirs: [data, nested], workspace });
  if (existsSync("/etc/shadow")) expect(masks).toContain("/etc/shadow");
  expect(masks.filter((path) => path.startsWith(`${root}/`))).toEqual(
    [
      join(data, "rein.db"),
      join(data, "server-token"),
      join(home, ".aws"),
      join(home, ".netrc"),
      join(home, ".ssh"),
      keys,
      join(workspace, ".env"),
      join(workspace, "packages", "api", ".env.production"),
    ].sort(),
  );
});

test("the workspace search is kept until a call that could write runs, or half a minute passes", () => {
  const workspace = join(root, "cached");
  mkdirSync(workspace);
  let clock = 0;
  const masks = maskSource({ home: join(root, "no-home"), reinDirs: [], workspace }, () => clock);
  const envs = (list: string[]) => list.filter((path) => path.startsWith(`${workspace}/`));
  expect(envs(masks(true))).toEqual([]);
  writeFileSync(join(workspace, ".env"), "");
  expect(envs(masks(true))).toEqual([]); // read-only calls cannot have written it: the search is kept
  expect(envs(masks(false))).toEqual([]); // a call that could write: credentials only, and the search is dropped
  expect(envs(masks(true))).toEqual([join(workspace, ".env")]);
  writeFileSync(join(workspace, ".envrc"), "");
  clock += 30_001; // written by something else meanwhile: found once the search is old
  expect(envs(masks(true))).toEqual([join(workspace, ".env"), join(workspace, ".envrc")]);
});

test("the masks are kept between read-only calls, but a secret rein writes into its own folders meanwhile is masked at once", () => {
  const workspace = join(root, "kept");
  const data = join(root, "kept-data");
  mkdirSync(workspace);
  mkdirSync(data);
  const masks = maskSource({ home: join(root, "no-home"), reinDirs: [data], workspace }, () => 0);
  const first = masks(true);
  expect(masks(true)).toBe(first); // the same list, not computed again
  writeFileSync(join(data, "server-token"), "");
  expect(masks(true)).toContain(join(data, "server-token"));
});

test("a call that could write (auto mode's) gets the credentials and rein's secrets masked, not the workspace's .env files", () => {
  const workspace = join(root, "writer");
  const home = join(root, "writer-home");
  const data = join(root, "writer-data");
  for (const dir of [workspace, join(home, ".ssh"), join(home, ".config", "gh"), data]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, ".config", "gh", "hosts.yml"), "token");
  writeFileSync(join(data, "server-token"), "");
  writeFileSync(join(workspace, ".env"), "");
  const masks = maskSource({ home, reinDirs: [data], workspace }, () => 0);
  const mine = (list: string[]) => list.filter((path) => path.startsWith(`${root}/`));
  expect(mine(masks(false))).toEqual([join(data, "server-token"), join(home, ".config", "gh", "hosts.yml"), join(home, ".ssh")].sort());
});
