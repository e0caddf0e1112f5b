// A UserPromptSubmit hook that runs `rein -p`: the rein it starts knows it runs under a rein hook
// (REIN_HOOK_DEPTH), and at MAX_HOOK_DEPTH (2) rein fires no hooks, so the recursion ends.
import { expect, test } from "bun:test";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BINARY, text, world } from "./harness.ts";

test.concurrent("a hook that runs rein -p recurses at most 2 deep, and the innermost rein says why it fired no hooks", async () => {
  await using w = await world({ repeat: { reply: [text("ok")] } });
  const log = join(w.root, "depths.log");
  // the providers' keys never reach a hook: the hook gives the inner rein the fake's
  const inner = `ANTHROPIC_API_KEY=test-key ANTHROPIC_BASE_URL=${w.fake.url} ${BINARY} -p inner 2>>${join(w.root, "inner.err")} >/dev/null`;
  const hook = `echo "\${REIN_HOOK_DEPTH:-none}" >> ${log}; ${inner}; exit 0`;
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: hook, timeout: 60 }] }] } }));

  const r = await w.run(["-p", "outer"], { timeoutMs: 90_000 });

  expect(r).toMatchObject({ code: 0, stdout: "ok\n" });
  // the outer rein's hook ran at depth 1, the rein it started ran its hook at depth 2; that one's rein fired none
  expect((await readFile(log, "utf8")).trim().split("\n")).toEqual(["1", "2"]);
  expect(await readFile(join(w.root, "inner.err"), "utf8")).toContain("hooks are not run: this rein was started by a rein hook 2 deep (REIN_HOOK_DEPTH=2; hooks run at most 2 deep)");
  expect(w.fake.requests).toHaveLength(3);
}, 120_000);
