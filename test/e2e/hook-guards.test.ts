// A hook that guards (PreToolUse, PermissionRequest, UserPromptSubmit) and cannot start never fails
// open: the tool call or the prompt is refused, saying why (a plugin update removed its script, say).
import { expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { bash, resultText, text, toolResultsOf, world } from "./harness.ts";

test.concurrent("a PreToolUse hook whose script is gone: the call is refused and the model told why", async () => {
  await using w = await world();
  const marker = w.path("ran.txt");
  const guard = [{ matcher: "Bash", hooks: [{ type: "command", command: join(w.root, "gone/guard.sh") }] }];
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ hooks: { PreToolUse: guard } }));
  w.fake.script({ reply: [bash(`touch ${marker}`)] }, { reply: [text("done")] });

  const r = await w.run(["-p", "touch it", "--allow", "bash"]);

  expect(r.code).toBe(0);
  expect(await Bun.file(marker).exists()).toBe(false);
  const result = resultText(toolResultsOf(w.fake.requests[1])[0]);
  expect(result).toContain("the PreToolUse hook could not start (command not found (exit 127)");
});

test.concurrent("a UserPromptSubmit hook that cannot start: the prompt is not sent and the run fails saying why", async () => {
  await using w = await world();
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: join(w.root, "gone/check.sh") }] }] } }));
  w.fake.script({ reply: [text("must not be reached")] });

  const r = await w.run(["-p", "hi"]);

  expect(r.code).toBe(1);
  expect(r.stderr).toContain("the UserPromptSubmit hook could not start (command not found (exit 127)");
  expect(w.fake.requests).toHaveLength(0);
});
