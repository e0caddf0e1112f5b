// Claude Code's model names through the compiled binary: what reaches the API is the model they
// stand for (flags, config, a command's and an agent's front matter, the task tool's `model`), and
// a bare word that is no model is a usage error listing them, with nothing sent.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { text, world } from "./harness.ts";

test.concurrent("-m opus and a config's haiku reach the API as the newest model of the family; the session event names it", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("ok")] }, { reply: [text("ok")] });
  const r = await w.runStream(["-p", "hi", "-m", "opus"]);
  expect(r.code).toBe(0);
  expect(w.fake.requests[0]!.body.model).toBe("claude-opus-5-5");
  expect(r.events[0]).toMatchObject({ type: "session", model: "claude-opus-5-5" });

  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ model: "haiku" }));
  expect((await w.run(["-p", "hi again"])).code).toBe(0);
  expect(w.fake.requests[1]!.body.model).toBe("claude-haiku-5-5");
});

test.concurrent("an unknown bare name is a usage error listing the models; nothing is sent", async () => {
  await using w = await world();
  const r = await w.run(["-p", "hi", "-m", "opsu"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('unknown model "opsu": use one of claude-sonnet-5-5, claude-opus-5-5');
  expect(r.stderr).toContain("an alias (sonnet, opus, haiku, fable, inherit)");
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("a command's model: haiku, an agent's model: inherit and the task tool's model: fable", async () => {
  await using w = await world();
  await mkdir(w.path(".claude", "commands"), { recursive: true });
  await writeFile(w.path(".claude", "commands", "quick.md"), "---\nmodel: haiku\n---\nAnswer quickly: $ARGUMENTS\n");
  await mkdir(w.path(".claude", "agents"), { recursive: true });
  await writeFile(w.path(".claude", "agents", "helper.md"), "---\nname: helper\ndescription: helps\nmodel: inherit\n---\nYOU HELP.\n");
  const isChild = (body: { system?: unknown }) => JSON.stringify(body.system).includes("YOU HELP.");
  w.fake.script(
    { reply: [text("quick")] },
    { reply: [{ type: "tool_use", name: "task", id: "toolu_t1", input: { description: "help", prompt: "help me", subagent_type: "helper" } }] },
    { respond: (body) => (isChild(body) ? { reply: [text("helped")] } : { error: 500 }) },
    { reply: [{ type: "tool_use", name: "task", id: "toolu_t2", input: { description: "help", prompt: "help me more", subagent_type: "helper", model: "fable" } }] },
    { respond: (body) => (isChild(body) ? { reply: [text("helped more")] } : { error: 500 }) },
    { reply: [text("done")] },
  );
  expect((await w.run(["-p", "/quick what is 2+2", "--trust"])).code).toBe(0);
  expect(w.fake.requests[0]!.body.model).toBe("claude-haiku-5-5");
  const r = await w.run(["-p", "get help", "-m", "sonnet", "--trust"]);
  expect(r.code).toBe(0);
  const models = w.fake.requests.slice(1).map((req) => `${isChild(req.body) ? "child" : "parent"} ${req.body.model}`);
  expect(models).toEqual(["parent claude-sonnet-5-5", "child claude-sonnet-5-5", "parent claude-sonnet-5-5", "child claude-fable-5-2", "parent claude-sonnet-5-5"]);
});
