// Servers' prompts as commands, on a hub of real server processes (server-everything and the rogue
// fixture): what is known before and after the servers connect, the namespace a name belongs to,
// the usage errors check finds without fetching, and what a server that is not there says.
import { afterEach, expect, test } from "bun:test";
import { promptCommands } from "../../../src/mcp/prompts.ts";
import { everything, hub, rogue } from "./servers.ts";

const hubs: ReturnType<typeof hub>[] = [];
afterEach(async () => {
  for (const h of hubs.splice(0)) await h.close();
});

function commands(servers: Parameters<typeof hub>[0]) {
  const h = hub(servers);
  hubs.push(h);
  return { h, prompts: promptCommands(Promise.resolve(h), Object.keys(servers)) };
}

test("nothing is known before a server connects; once started, each prompt is a command with its first description line and hint", async () => {
  const { prompts } = commands({ everything: everything(), rogue: rogue() });
  expect(prompts.known()).toEqual([]);
  const started = await prompts.started();
  const byName = new Map(started.map((c) => [c.name, c]));
  expect(byName.get("mcp__rogue__picture")).toEqual({ name: "mcp__rogue__picture", description: "Shows a picture." });
  expect(byName.get("mcp__everything__args-prompt")).toEqual({ name: "mcp__everything__args-prompt", description: "A prompt with two arguments, one required and one optional", argumentHint: "city [state]" });
  // known() now answers from the connected servers, without waiting
  expect(prompts.known().map((c) => c.name).sort()).toEqual(started.map((c) => c.name).sort());
  expect((await prompts.list()).map((c) => c.name).sort()).toEqual(started.map((c) => c.name).sort());
});

test("owns: a name in a configured server's namespace, known yet or not; not another server's or a plain command", () => {
  const { prompts } = commands({ rogue: rogue() });
  expect(prompts.owns("mcp__rogue__picture")).toBe(true);
  expect(prompts.owns("mcp__rogue__not-yet-listed")).toBe(true);
  expect(prompts.owns("mcp__rogues__picture")).toBe(false);
  expect(prompts.owns("mcp__other__x")).toBe(false);
  expect(prompts.owns("review")).toBe(false);
});

test("check finds usage errors without getting the prompt: a missing required argument, words left over", async () => {
  const { prompts } = commands({ everything: everything() });
  expect(await prompts.check("mcp__everything__args-prompt", "")).toBe("/mcp__everything__args-prompt: it needs city (city [state])");
  expect(await prompts.check("mcp__everything__args-prompt", "Paris")).toBeUndefined();
  expect(await prompts.check("mcp__everything__args-prompt", 'city=Paris state="Ile de France"')).toBeUndefined();
  expect(await prompts.check("mcp__everything__simple-prompt", "extra words")).toBe('/mcp__everything__simple-prompt: it takes no arguments, and "extra words" was left over');
});

test("a prompt the server does not have: check and expand name the prompts it has", async () => {
  const { prompts } = commands({ rogue: rogue() });
  const expected = 'unknown command /mcp__rogue__nope: MCP server "rogue" has the prompts /mcp__rogue__picture';
  expect(await prompts.check("mcp__rogue__nope", "")).toBe(expected);
  expect(await prompts.expand("mcp__rogue__nope", "")).toEqual({ error: expected });
});

test("a prompt's messages become one user turn: texts in order, images attached", async () => {
  const { prompts } = commands({ rogue: rogue() });
  const expanded = await prompts.expand("mcp__rogue__picture", "");
  if ("error" in expanded) throw new Error(expanded.error);
  expect(expanded.text).toBe("Describe this picture.");
  expect(expanded.attachments).toHaveLength(1);
  expect(expanded.attachments[0]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png" } });
  // the arguments are checked before anything is fetched
  expect(await prompts.expand("mcp__rogue__picture", "surplus")).toEqual({ error: '/mcp__rogue__picture: it takes no arguments, and "surplus" was left over' });
});

test("a server that fails to start: expand says it is not available and why; check leaves it to the run", async () => {
  const { prompts } = commands({ broken: rogue("exit") });
  const expanded = await prompts.expand("mcp__broken__anything", "");
  expect("error" in expanded && expanded.error).toStartWith('/mcp__broken__anything: MCP server "broken" is not available: ');
  // not a usage error: the run fails on it instead (exit 1)
  expect(await prompts.check("mcp__broken__anything", "")).toBeUndefined();
  expect(await prompts.started()).toEqual([]);
});
