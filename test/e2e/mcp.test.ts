// MCP servers through the compiled binary: a real server from npm over stdio, its tool called by
// the model and its result sent back; a rule naming the server; a server that does not start.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT, resultText, text, toolResultsOf, world, type World } from "./harness.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

async function configure(w: World, config: Record<string, unknown>): Promise<void> {
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify(config));
}

const everything = { command: "node", args: [EVERYTHING, "stdio"] };

test.concurrent("a print-mode run calls a stdio server's tool allowed by a server rule", async () => {
  await using w = await world();
  await configure(w, { mcpServers: { everything }, permissions: { allow: ["mcp__everything"] } });
  w.fake.script({ reply: [use("mcp__everything__echo", { message: "hi there" })] }, { reply: [text("done")] });
  const r = await w.run(["-p", "echo"]);
  expect(r).toMatchObject({ code: 0, stdout: "done\n" });
  const tools = (w.fake.requests[0]!.body as { tools: { name: string; input_schema: { properties?: object } }[] }).tools;
  const echo = tools.find((t) => t.name === "mcp__everything__echo");
  expect(echo?.input_schema.properties).toHaveProperty("message");
  const result = toolResultsOf(w.fake.requests[1])[0];
  expect(result?.is_error).toBeUndefined();
  expect(resultText(result)).toBe("Echo: hi there");
});

test.concurrent("without a rule an MCP call is asked for, and print mode refuses it", async () => {
  await using w = await world();
  await configure(w, { mcpServers: { everything } });
  w.fake.script({ reply: [use("mcp__everything__echo", { message: "x" })] }, { reply: [text("ok")] });
  const r = await w.run(["-p", "echo"]);
  const result = toolResultsOf(w.fake.requests[1])[0];
  expect(result?.is_error).toBe(true);
  expect(resultText(result)).not.toContain("Echo: x");
  expect(resultText(result)).toContain("--allow 'mcp__everything__echo'");
  expect(r.stderr).toContain("refused mcp__everything__echo");
});

test.concurrent("a server whose command does not exist is an error result naming it; the run goes on", async () => {
  await using w = await world();
  await configure(w, { mcpServers: { ghost: { command: "no-such-mcp-server-here" }, everything }, permissions: { allow: ["mcp__*"] } });
  w.fake.script({ reply: [use("mcp__everything__echo", { message: "still" })] }, { reply: [text("done")] });
  const r = await w.run(["-p", "go"]);
  expect(r).toMatchObject({ code: 0, stdout: "done\n" });
  const names = (w.fake.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name);
  expect(names.some((n) => n.startsWith("mcp__ghost__"))).toBe(false);
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toBe("Echo: still");
});
