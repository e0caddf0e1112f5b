// Servers' prompts as slash commands and `@SERVER:URI` attachments, through a real Session made by
// the factory against the fake Anthropic server, with server-everything and the rogue server as the
// MCP servers: what the model is sent as the user turn, and the errors that send nothing.
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import { sessionOptions } from "../../../src/app/factory.ts";
import { Session } from "../../../src/session/session.ts";
import { commandProblem } from "../../../src/session/skills.ts";
import { Store } from "../../../src/session/store.ts";
import { startFakeAnthropic, type FakeServer } from "../../fake/server.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { promptArguments } from "../../../src/mcp/prompt-arguments.ts";
import { everything, rogue, runSettings } from "./servers.ts";

let fake: FakeServer;
let dir: TempDir;
let store: Store;
let sessions: Session[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic({ strict: true });
});
afterAll(() => fake.close());
beforeEach(() => {
  dir = tempDir("rein-mcp-prompts-");
  store = Store.open(join(dir.path, "rein.db")).store;
  fake.reset();
});
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.end("other").catch(() => undefined)));
  sessions = [];
  store.close();
  dir.remove();
});

function open() {
  const options = sessionOptions(runSettings(dir.path, fake.url, { everything: everything(), rogue: rogue() }), store);
  const session = Session.create(dir.path, options);
  sessions.push(session);
  return { options, session };
}

const userContent = (i = 0) => fake.requests[i]!.body.messages[0].content as { type: string; text?: string; source?: { media_type: string } }[];
const say = (t: string) => ({ reply: [{ type: "text" as const, text: t }] });

test("a prompt becomes a command: positional and name=value arguments; its messages are the user turn", async () => {
  const { session } = open();
  fake.script(say("one"), say("two"), say("three"));
  expect((await session.prompt("/mcp__everything__args-prompt Paris")).status).toBe("success");
  expect(userContent(0)[0]).toMatchObject({ type: "text", text: "What's weather in Paris?" });
  expect((await session.prompt('/mcp__everything__args-prompt state=Texas city="San Antonio"')).status).toBe("success");
  expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain("What's weather in San Antonio, Texas?");
  // An embedded resource in the prompt's messages arrives as its text.
  await session.prompt("/mcp__everything__resource-prompt Text 1");
  expect(JSON.stringify(fake.requests[2]!.body.messages)).toContain("Resource 1: This is a plaintext resource");
}, 30_000);

test("a prompt's image messages are attached as images", async () => {
  const { session } = open();
  fake.script(say("a picture"));
  expect((await session.prompt("/mcp__rogue__picture")).status).toBe("success");
  const content = userContent();
  expect(content[0]).toEqual({ type: "text", text: "Describe this picture." });
  expect(content[1]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png" } });
}, 30_000);

test("a missing argument, an unknown prompt and an unknown command each send nothing and say why", async () => {
  const { options, session } = open();
  const missing = await session.prompt("/mcp__everything__args-prompt");
  expect(missing).toMatchObject({ status: "error", error: "/mcp__everything__args-prompt: it needs city (city [state])" });
  const unknown = await session.prompt("/mcp__everything__no-such-prompt");
  expect(unknown.error).toStartWith('unknown command /mcp__everything__no-such-prompt: MCP server "everything" has the prompts /mcp__everything__simple-prompt, ');
  expect(fake.requests).toHaveLength(0);
  // What print mode checks before it runs: an unknown command lists the servers' prompts too.
  expect(await commandProblem("/nothing-here", options.skills)).toContain("/mcp__rogue__picture");
  expect(options.skills!.prompts!.known().map((c) => c.name)).toContain("mcp__everything__args-prompt");
  expect(options.skills!.prompts!.known().find((c) => c.name === "mcp__everything__args-prompt")?.argumentHint).toBe("city [state]");
}, 30_000);

test("@SERVER:URI attaches the resource: text in a frame, images as images", async () => {
  const { session } = open();
  fake.script(say("read"), say("seen"));
  const uri = "demo://resource/static/document/architecture.md";
  expect((await session.prompt(`summarise @everything:${uri}.`)).status).toBe("success");
  const content = userContent();
  expect(content[0]!.text).toBe(`summarise @everything:${uri}.`);
  expect(content[1]!.text).toStartWith(`<resource server="everything" uri="${uri}">\n`);
  expect((await session.prompt("what is in @rogue:rogue://picture.png")).status).toBe("success");
  expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1).content)).toContain('"media_type":"image/png"');
}, 30_000);

test("@ an unknown server or resource is one error line, and the prompt is not sent", async () => {
  const { session } = open();
  const server = await session.prompt("look at @nobody:demo://x");
  expect(server).toMatchObject({ status: "error", error: '@nobody:demo://x: there is no MCP server "nobody" (configured: everything, rogue); the prompt was not sent' });
  const resource = await session.prompt("look at @rogue:rogue://missing");
  expect(resource.error).toBe('@rogue:rogue://missing: MCP server "rogue" failed reading rogue://missing: MCP error -32002: no resource rogue://missing; the prompt was not sent');
  expect(fake.requests).toHaveLength(0);
  // An address that is no resource reference is plain text.
  fake.script(say("ok"));
  expect((await session.prompt("mail me@example.com about @types/node")).status).toBe("success");
}, 30_000);

test("arguments: name=value first, the rest in order, the last takes what is left", () => {
  const declared = [{ name: "city", required: true }, { name: "state" }];
  expect(promptArguments(declared, "Paris")).toEqual({ city: "Paris" });
  expect(promptArguments(declared, "state=Texas San Antonio")).toEqual({ state: "Texas", city: "San Antonio" });
  expect(promptArguments(declared, "'New York' New York State")).toEqual({ city: "New York", state: "New York State" });
  expect(promptArguments([], "x")).toEqual({ error: 'it takes no arguments, and "x" was left over' });
  expect(promptArguments(declared, "")).toEqual({ error: "it needs city (city [state])" });
});
