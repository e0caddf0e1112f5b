// UserPromptExpansion, as Claude Code fires it: when a /command expands, matched on its name, with
// the command's name, arguments and source; plain stdout is context beside the prompt, a block
// refuses the prompt before anything is sent.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { text, world } from "./harness.ts";

test.concurrent("a UserPromptExpansion hook hears the command, adds context, or blocks it", async () => {
  await using w = await world();
  const heard = join(w.root, "heard.json");
  const hooks = {
    UserPromptExpansion: [
      { matcher: "fix", hooks: [{ type: "command", command: `cat > ${heard}; echo "ticket FOO-1 is about the parser"` }] },
      { matcher: "deploy", hooks: [{ type: "command", command: `echo '{"decision":"block","reason":"no deploys on Fridays"}'` }] },
    ],
  };
  await mkdir(w.path(".claude", "commands"), { recursive: true });
  await writeFile(w.path(".claude", "settings.json"), JSON.stringify({ hooks }));
  await writeFile(w.path(".claude", "commands", "fix.md"), "---\ndescription: Fix\n---\nFix issue $1.\n");
  await writeFile(w.path(".claude", "commands", "deploy.md"), "---\ndescription: Deploy\n---\nDeploy now.\n");
  w.fake.script({ reply: [text("fixed")] });
  const fixed = await w.run(["-p", "/fix 42", "--trust"]);
  expect(fixed.code).toBe(0);
  expect(JSON.parse(await Bun.file(heard).text())).toMatchObject({ hook_event_name: "UserPromptExpansion", expansion_type: "slash_command", command_name: "fix", command_args: "42", command_source: "project", prompt: "/fix 42" });
  const sent = JSON.stringify(w.fake.requests[0]!.body.messages[0]);
  expect(sent).toContain("Fix issue 42.");
  expect(sent).toContain("ticket FOO-1 is about the parser");

  const blocked = await w.run(["-p", "/deploy", "--trust"]);
  expect(blocked.code).toBe(1);
  expect(blocked.stderr).toContain("a UserPromptExpansion hook blocked /deploy: no deploys on Fridays");
  expect(w.fake.requests).toHaveLength(1);
}, 30_000);
