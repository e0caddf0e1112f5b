// `rein plugin update` while a session uses the plugin's PreToolUse guard (issue 31 item 8): the
// running session keeps the copy it loaded, so its guard still runs and blocks with its own reason
// (not "could not start"); the old copy goes with the next install once no session holds it.
import { expect, test } from "bun:test";
import { chmod, mkdir, readdir, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { bash, resultText, text, toolResultsOf, waitFor, world, type World } from "./harness.ts";

/** A plugin whose PreToolUse hook on Bash refuses every command, naming its version. */
async function guardPlugin(w: World, version: string): Promise<string> {
  const dir = join(w.root, "guard-src");
  await mkdir(join(dir, ".claude-plugin"), { recursive: true });
  await mkdir(join(dir, "hooks"), { recursive: true });
  await writeFile(join(dir, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "guard", version }));
  const hooks = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh" }] }] } };
  await writeFile(join(dir, "hooks", "hooks.json"), JSON.stringify(hooks));
  await writeFile(join(dir, "hooks", "guard.sh"), `#!/bin/sh\necho "guard ${version} says no" >&2\nexit 2\n`);
  await chmod(join(dir, "hooks", "guard.sh"), 0o755);
  return dir;
}

test.concurrent("an update while a session runs the plugin's guard: the session's guard still runs and blocks; the old copy goes once free", async () => {
  await using w = await world();
  const source = await guardPlugin(w, "1.0.0");
  expect((await w.run(["plugin", "install", source, "--yes"])).code).toBe(0);
  const cache = join(w.dataDir, "plugins/cache/guard");
  const marker = w.path("ran.txt");

  let release!: () => void;
  const updated = new Promise<void>((resolve) => (release = resolve));
  w.fake.script({ reply: [bash(`touch ${marker}`)], waitFor: updated }, { reply: [text("done")] });
  const session = w.start(["-p", "touch it", "--allow", "bash"], { timeoutMs: 40_000 });
  await waitFor(() => w.fake.requests.length === 1, "the session's first request (its plugins loaded)", 30_000);

  // The plugin's next version, installed while the session waits for its model.
  await guardPlugin(w, "2.0.0");
  const update = await w.run(["plugin", "update", "guard", "--yes"]);
  expect(update.code).toBe(0);
  expect(existsSync(join(cache, "2.0.0"))).toBe(true);
  expect(existsSync(join(cache, "1.0.0", "hooks", "guard.sh"))).toBe(true);

  release();
  const r = await session.exited;
  expect(r.code).toBe(0);
  expect(existsSync(marker)).toBe(false);
  const result = resultText(toolResultsOf(w.fake.requests[1])[0]);
  expect(result).toContain("guard 1.0.0 says no");
  expect(result).not.toContain("could not start");

  // No session holds 1.0.0 any more: the next install clears it.
  expect((await w.run(["plugin", "install", source, "--yes"])).code).toBe(0);
  expect(await readdir(cache)).toEqual(["2.0.0"]);
}, 90_000);
