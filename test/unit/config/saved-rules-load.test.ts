// "Always" saves rules into a config file; the next start must load them, as the same rules. Every
// line of the red-team corpora, plus lines built to break the grammar, through the real engine:
// each "always" pattern it offers is saved with saveAllowRules and read back with loadConfig.
import { afterAll, expect, test } from "bun:test";
import { Glob } from "bun";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config/load.ts";
import { saveAllowRules } from "../../../src/config/save-rules.ts";
import { engineContext, expandRequests } from "../../../src/permission/engine.ts";
import type { PermissionRequest } from "../../../src/permission/evaluate.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "rein-saved-rules-")));
const workspace = join(root, "ws");
const home = join(root, "home");
for (const dir of [join(workspace, ".git"), join(workspace, "a (1)"), home, join(root, "config")]) mkdirSync(dir, { recursive: true });
writeFileSync(join(workspace, "x)"), "");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const corpusDir = join(import.meta.dir, "../permission/redteam");
const corpusLines: string[] = [];
for (const file of new Glob("*.ts").scanSync(corpusDir)) {
  if (file === "fixture.ts" || file.endsWith(".test.ts")) continue;
  const corpus = (await import(join(corpusDir, file))) as Record<string, unknown>;
  for (const key of ["attacks", "benign", "credentials"]) if (Array.isArray(corpus[key])) corpusLines.push(...(corpus[key] as string[]));
}
const BUILT = [
  "rm 'x)'",
  "rm 'a (1)'",
  "cat 'a (1)/b)'",
  'echo "(" ")" "(("',
  "touch 'a\\b' \\* 'c*d'",
  "git checkout -- '(x'",
  "npm run 'dev:(watch)'",
  "sudo rm -rf 'build/*'",
  "echo $'\\x29' > 'out)'",
  "printf '%s\\n' ')' | tee '))'",
];

test("every rule an always answer saves loads back at the next start, unchanged", async () => {
  const ctx = engineContext({ cwd: workspace, projectRoot: workspace, home, reinDirs: [], tmp: join(root, "tmp") });
  const requests: PermissionRequest[] = [
    // a tool without a permissions function asks under its own name, which may be any tool name
    { permission: "myTool", pattern: "*", always: ["*"] },
    { permission: "mcp__git.hub__create-issue_2", pattern: "*", always: ["*"] },
  ];
  for (const line of [...corpusLines, ...BUILT]) {
    requests.push(...(await expandRequests([{ permission: "bash", pattern: line, always: [] }], ctx)).requests);
  }
  const offered = requests.flatMap((r) => r.always.map((pattern) => ({ permission: r.permission, pattern })));
  expect(offered.length).toBeGreaterThan(BUILT.length);

  const file = join(root, "config", "config.json");
  saveAllowRules(file, offered);
  const config = loadConfig({ cwd: workspace, projectRoot: workspace, env: { REIN_CONFIG_DIR: join(root, "config"), HOME: home }, overrides: {} });

  const loaded = config.rules.user.map((r) => `${r.permission} ${r.pattern}`);
  const missing = [...new Set(offered.map((r) => `${r.permission} ${r.pattern}`))].filter((r) => !loaded.includes(r));
  expect(missing).toEqual([]);
  expect(config.rules.user.every((r) => r.action === "allow")).toBe(true);
});
