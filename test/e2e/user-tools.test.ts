// User and project tools loaded by the compiled binary: `rein/tool` and `valibot` served with no
// node_modules, relative imports, reloading between turns, broken files reported and skipped, and
// project tools only in a trusted workspace.
import { expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { parseEvents, resultText, text, toolResultsOf, world, type World } from "./harness.ts";

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

async function writeTool(dir: string, file: string, source: string): Promise<void> {
  await mkdir(join(dir, file, ".."), { recursive: true });
  await Bun.write(join(dir, file), source);
}

const GREET = `import * as v from "valibot";
import { defineTool } from "rein/tool";
import { greeting } from "./lib/greeting.ts";
export default defineTool({
  name: "greet",
  description: "Greets someone.",
  input: v.object({ who: v.string() }),
  readOnly: true,
  permissions: () => [],
  run: ({ who }) => greeting(who),
});
`;

const userTools = (w: World) => join(w.configDir, "tools");

test.concurrent("a user tool imports rein/tool, valibot and a relative file, and runs in the compiled binary", async () => {
  await using w = await world();
  await writeTool(userTools(w), "greet.ts", GREET);
  await writeTool(userTools(w), "lib/greeting.ts", "export const greeting = (who: string) => `hello ${who}`;\n");
  w.fake.script({ reply: [use("greet", { who: "ada" })] }, { reply: [text("done")] });
  const r = await w.run(["-p", "greet ada"]);
  expect(r).toMatchObject({ code: 0, stdout: "done\n" });
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toBe("hello ada");
  const tools = (w.fake.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name);
  expect(tools).toContain("greet");
  expect(tools).toContain("bash");
});

test.concurrent("a changed relative import is picked up before the next model turn", async () => {
  await using w = await world();
  const dir = userTools(w);
  await writeTool(dir, "greet.ts", GREET);
  await writeTool(dir, "lib/greeting.ts", "export const greeting = (who: string) => `hello ${who}`;\n");
  w.fake.script(
    {
      raw: async () => {
        // While the first turn is answered, the helper changes on disk.
        await Bun.write(join(dir, "lib/greeting.ts"), "export const greeting = (who: string) => `HI ${who}`;\n");
        return sseReply([use("greet", { who: "one" })]);
      },
    },
    { reply: [use("greet", { who: "two" })] },
    { reply: [text("done")] },
  );
  const r = await w.run(["-p", "greet twice"]);
  expect(r.code).toBe(0);
  // The first call ran with the tools of its turn; the second turn reloaded them.
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toBe("hello one");
  expect(resultText(toolResultsOf(w.fake.requests[2]).at(-1))).toBe("HI two");
});

test.concurrent("broken tool files are reported with file, line and reason, and the others keep working", async () => {
  await using w = await world();
  const dir = userTools(w);
  await writeTool(dir, "greet.ts", GREET);
  await writeTool(dir, "lib/greeting.ts", "export const greeting = (who: string) => `hello ${who}`;\n");
  await writeTool(dir, "syntax.ts", "export default {\n  name: 1 +;\n};\n");
  await writeTool(dir, "notatool.ts", "export default 42;\n");
  await writeTool(dir, "clash.ts", GREET.replace('name: "greet"', 'name: "bash"').replace("./lib/greeting.ts", "./lib/greeting.ts"));
  await writeTool(dir, "twin.ts", GREET);
  await writeTool(dir, "thrower.ts", `import * as v from "valibot";
import { defineTool } from "rein/tool";
export default defineTool({ name: "thrower", description: "Throws.", input: v.object({}), permissions: () => [], run: () => { throw new Error("kaboom"); } });
`);

  const list = await w.run(["tools", "list"]);
  expect(list.code).toBe(0);
  expect(list.stdout).toMatch(/greet\s+user/);
  expect(list.stdout).toMatch(/bash\s+built-in/);
  expect(list.stdout).toContain(`${join(dir, "syntax.ts")}:2:`);
  expect(list.stdout).toContain(`${join(dir, "notatool.ts")}: the default export is not a tool`);
  expect(list.stdout).toContain(`${join(dir, "clash.ts")}: the name "bash" is already used by a built-in tool`);
  expect(list.stdout).toContain(`${join(dir, "twin.ts")}: the name "greet" is already used by ${join(dir, "greet.ts")}`);

  w.fake.script({ reply: [use("thrower", {}), use("greet", { who: "bob" })] }, { reply: [text("ok")] });
  const r = await w.run(["-p", "go"]);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("tools not loaded");
  const [thrown, greeted] = toolResultsOf(w.fake.requests[1]);
  expect(thrown).toMatchObject({ is_error: true });
  expect(resultText(thrown)).toContain('Tool "thrower" failed: kaboom');
  expect(resultText(greeted)).toBe("hello bob");
});

test.concurrent("a hanging user tool is reached by the abort (SIGINT exits promptly)", async () => {
  await using w = await world();
  await writeTool(userTools(w), "wait.ts", `import * as v from "valibot";
import { defineTool } from "rein/tool";
export default defineTool({ name: "wait", description: "Waits for the abort.", input: v.object({}), permissions: () => [],
  run: (_input, ctx) => new Promise((resolve) => { ctx.output("waiting"); ctx.signal.addEventListener("abort", () => resolve("stopped by abort")); }) });
`);
  w.fake.script({ reply: [use("wait", {})] });
  const rein = w.start(["-p", "wait", "--output-format", "stream-json"]);
  await rein.waitForEvent("tool_output");
  rein.kill("SIGINT");
  const r = await rein.exited;
  expect(r.code).toBe(130);
  expect(parseEvents(r.stdout).find((e) => e.type === "tool_end")).toMatchObject({ name: "wait" });
});

test.concurrent("project tools load only in a trusted workspace", async () => {
  await using w = await world();
  await writeTool(join(w.cwd, ".rein", "tools"), "greet.ts", GREET);
  await writeTool(join(w.cwd, ".rein", "tools"), "lib/greeting.ts", "export const greeting = (who: string) => `project hello ${who}`;\n");

  const untrusted = await w.run(["tools", "list"]);
  expect(untrusted.stdout).not.toMatch(/greet\s+project/);
  expect(untrusted.stdout).toContain("not trusted");

  w.fake.script({ reply: [text("no tools")] });
  const run = await w.run(["-p", "hi"]);
  expect(run.stderr).toContain("were not loaded: this workspace is not trusted");
  expect((w.fake.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name)).not.toContain("greet");

  w.fake.script({ reply: [use("greet", { who: "eve" })] }, { reply: [text("ok")] });
  const trusted = await w.run(["-p", "hi", "--trust"]);
  expect(trusted.code).toBe(0);
  expect(resultText(toolResultsOf(w.fake.requests.at(-1))[0])).toBe("project hello eve");
});

/** A streamed reply for a `raw` step, in the shape the fake server sends. */
function sseReply(blocks: ReturnType<typeof use>[]): Response {
  const events: string[] = [];
  const send = (event: string, data: unknown) => events.push(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send("message_start", {
    type: "message_start",
    message: { id: "msg_raw", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } },
  });
  blocks.forEach((b, index) => {
    send("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: `toolu_raw_${index}`, name: b.name, input: {} } });
    send("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) } });
    send("content_block_stop", { type: "content_block_stop", index });
  });
  send("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 5 } });
  send("message_stop", { type: "message_stop" });
  return new Response(events.join(""), { headers: { "content-type": "text/event-stream" } });
}
