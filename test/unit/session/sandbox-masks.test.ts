// What a read-only sandboxed command cannot read: what exists of the credentials denied in every
// mode, rein's own secrets, the workspace's top-level environment files; each once, at its real path.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxMasks } from "../../../src/session/sandbox-masks.ts";

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
  writeFileSync(join(data, "rein.db"), "");
  writeFileSync(join(data, "server-token"), "");
  mkdirSync(join(data, "output"));
  const nested = join(home, ".ssh", "rein"); // a rein folder inside a masked one
  mkdirSync(nested);
  writeFileSync(join(nested, "config.json"), "");

  const masks = sandboxMasks({ home, reinDirs: [data, nested], workspace });
  if (existsSync("/etc/shadow")) expect(masks).toContain("/etc/shadow");
  expect(masks.filter((path) => path.startsWith(`${root}/`))).toEqual(
    [join(data, "rein.db"), join(data, "server-token"), join(home, ".aws"), join(home, ".netrc"), join(home, ".ssh"), keys, join(workspace, ".env")].sort(),
  );
});
