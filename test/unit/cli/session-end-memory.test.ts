// The line memory.auto leaves on stderr when a session ends, from a real Session's conversation and
// one real extraction call to the fake model: what it kept (one or several), what it left out and
// why, nothing at all, a failure, and names from the model that cannot move the terminal.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { sessionEndMemoryLine } from "../../../src/cli/session-end-memory.ts";
import { anthropicStream } from "../../../src/llm/anthropic.ts";
import { listMemories, memoryDirs } from "../../../src/memory/store.ts";
import type { Session } from "../../../src/session/session.ts";
import { useKit } from "../../support/session-kit.ts";

const kit = useKit();

let projects = 0;
async function ended(): Promise<{ session: Session; ctx: Parameters<typeof sessionEndMemoryLine>[1] }> {
  const { session } = kit().create();
  kit().fake.script({ reply: [{ type: "text", text: "The tests need the database on port 5433." }] });
  await session.prompt("why do the API tests fail?");
  const stream = anthropicStream({ apiKey: "sk-ant-test", baseURL: kit().fake.url, retry: { maxAttempts: 1 } });
  return { session, ctx: { dataDir: join(kit().dir.path, "memdata"), projectRoot: join(kit().dir.path, `project-${++projects}`), stream, env: { REIN_MEMORY_AUTO_TIMEOUT_MS: "10000" } } };
}
const proposes = (...memories: unknown[]) => kit().fake.script({ reply: [{ type: "text", text: JSON.stringify({ memories }) }] });
const fact = (name: string, text: string) => ({ name, description: `about ${name}`, type: "project", text });

test("one fact kept: named, counted in the singular, pointing at rein memory list", async () => {
  const { session, ctx } = await ended();
  proposes(fact("api-test-database", "The API tests need PostgreSQL on port 5433."));
  expect(await sessionEndMemoryLine(session, ctx)).toBe("memory.auto remembered 1 fact from this session: api-test-database (rein memory list)");
  const { memories } = listMemories(memoryDirs(ctx.dataDir, ctx.projectRoot));
  expect(memories.map((m) => m.name)).toEqual(["api-test-database"]);
});

test("several kept, and one left out as already kept, in one line", async () => {
  const { session, ctx } = await ended();
  proposes(fact("db-port", "The test database listens on 5433."), fact("lint-first", "Run the linter before the tests."), fact("db-port-again", "The test database listens on 5433."));
  expect(await sessionEndMemoryLine(session, ctx)).toBe("memory.auto remembered 2 facts from this session: db-port, lint-first (left out: db-port-again: already kept as db-port) (rein memory list)");
});

test("nothing worth keeping says nothing; only left-out facts say what was left out", async () => {
  const first = await ended();
  proposes();
  expect(await sessionEndMemoryLine(first.session, first.ctx)).toBeUndefined();
  const second = await ended();
  proposes(fact("deploy-key", "The deploy key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ"));
  const line = await sessionEndMemoryLine(second.session, second.ctx);
  expect(line).toStartWith("memory.auto kept nothing new (left out: deploy-key: it holds what looks like a secret (");
  expect(listMemories(memoryDirs(second.ctx.dataDir, second.ctx.projectRoot)).memories).toEqual([]);
});

test("a failed extraction is one line saying why, never a thrown error", async () => {
  const bad = await ended();
  kit().fake.script({ reply: [{ type: "text", text: "I would rather not answer in JSON." }] });
  expect(await sessionEndMemoryLine(bad.session, bad.ctx)).toBe("memory.auto kept nothing from this session: the reply was not the JSON asked for");
  const refused = await ended();
  kit().fake.script({ error: 401 });
  expect(await sessionEndMemoryLine(refused.session, refused.ctx)).toStartWith("memory.auto kept nothing from this session: ");
});

test("names and errors from elsewhere are one printable line: no newline, no escape sequence", async () => {
  const { session, ctx } = await ended();
  proposes(fact("two\nlines \u001b[2Jcleared", "A fact with a name that tries to clear the screen."));
  const line = (await sessionEndMemoryLine(session, ctx))!;
  expect(line).not.toContain("\n");
  expect(line).not.toContain("\u001b");
  expect(line).toStartWith("memory.auto remembered 1 fact from this session: ");
});

test("stopped by the signal: said as stopped", async () => {
  const { session, ctx } = await ended();
  let arrived!: () => void;
  const asked = new Promise<void>((resolve) => (arrived = resolve));
  kit().fake.script({ respond: () => (arrived(), { hang: true }) });
  const controller = new AbortController();
  const line = sessionEndMemoryLine(session, ctx, controller.signal);
  await asked;
  controller.abort();
  expect(await line).toBe("memory.auto kept nothing from this session: stopped");
});
