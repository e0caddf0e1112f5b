// asyncRewake, as security-guidance's hooks.json uses it: the hook runs in the background and the
// call goes on; when it exits 2, what it wrote on stderr (after its rewakeMessage) reaches the model
// at the next point the conversation grows. The hooks file is Claude Code's; its keys rein does
// not read are left out one by one.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { bash, resultText, text, toolResultsOf, world } from "./harness.ts";

test.concurrent("an asyncRewake hook's exit 2 wakes the model with its stderr; its rewakeSummary is ignored with a note, never its group", async () => {
  await using w = await world();
  const done = join(w.root, "reviewed");
  const hooks = {
    PostToolUse: [
      {
        matcher: "Bash",
        hooks: [
          {
            type: "command",
            command: `echo "the commit adds a secret" >&2; touch ${done}; exit 2`,
            if: "Bash(git commit:*)",
            asyncRewake: true,
            rewakeMessage: "Background security review of commit:",
            rewakeSummary: "Commit security review found issues",
          },
        ],
      },
    ],
  };
  await mkdir(w.path(".claude"), { recursive: true });
  await writeFile(w.path(".claude", "settings.json"), JSON.stringify({ hooks }));
  w.fake.script(
    { reply: [bash("git commit -m x --allow-empty -q || true", "toolu_commit")] },
    // the hook ends in the background; this call waits for it before it returns
    { reply: [bash(`while [ ! -e ${done} ]; do sleep 0.05; done; sleep 0.3; echo waited`, "toolu_wait")] },
    { reply: [text("fixed")] },
  );
  const run = await w.run(["-p", "commit", "--trust", "--allow", "bash"]);
  expect(run.code).toBe(0);
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).not.toContain("security review");
  const woken = JSON.stringify(w.fake.requests[2]!.body.messages.at(-1));
  expect(woken).toContain("Background security review of commit: the commit adds a secret");

  const list = await w.run(["doctor"], { env: { ANTHROPIC_API_KEY: undefined } });
  expect(list.stdout).toContain(`note: ${w.path(".claude", "settings.json")}: "hooks.PostToolUse[0].hooks[0]": key "rewakeSummary" is not one rein reads; ignored`);
}, 30_000);
