import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../../../src/config/config-error.ts";
import { loadConfig } from "../../../src/config/load.ts";
import { saveAllowRules } from "../../../src/config/save-rules.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "rein-save-"));
  dirs.push(d);
  return d;
};

test("approvals are added to permissions.allow once, the rest of the file is kept, and the config still loads", () => {
  const dir = temp();
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify({ model: "claude-haiku-4-5", permissions: { deny: ["bash(git push *)"], allow: ["edit"] } }));
  const added = saveAllowRules(file, [
    { permission: "bash", pattern: "npm test *" },
    { permission: "edit", pattern: "*" },
    { permission: "bash", pattern: "npm test *" },
  ]);
  expect(added).toEqual(["bash(npm test *)"]);
  const saved = JSON.parse(readFileSync(file, "utf8"));
  expect(saved).toEqual({ model: "claude-haiku-4-5", permissions: { deny: ["bash(git push *)"], allow: ["edit", "bash(npm test *)"] } });
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const config = loadConfig({ cwd: dir, projectRoot: dir, env: { REIN_CONFIG_DIR: dir, HOME: dir }, overrides: {} });
  expect(config.rules.user).toContainEqual({ permission: "bash", pattern: "npm test *", action: "allow" });
});

test("a missing file is created; a broken one is left alone with a clear error", () => {
  const dir = temp();
  const fresh = join(dir, "sub", "config.json");
  expect(saveAllowRules(fresh, [{ permission: "bash", pattern: "make *" }])).toEqual(["bash(make *)"]);
  expect(JSON.parse(readFileSync(fresh, "utf8"))).toEqual({ permissions: { allow: ["bash(make *)"] } });
  const broken = join(dir, "broken.json");
  writeFileSync(broken, "{ nope");
  expect(() => saveAllowRules(broken, [{ permission: "bash", pattern: "make *" }])).toThrow(ConfigError);
  expect(readFileSync(broken, "utf8")).toBe("{ nope");
});
