// memory.auto against the fake Anthropic server through the real provider: one call proposes facts;
// at most 3 are kept, none already kept, none holding a secret, each noting its session; a failing,
// garbled or hanging call is one sentence and nothing is written.
import { beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../../src/agent/types.ts";
import { anthropicStream } from "../../../src/llm/anthropic.ts";
import { autoMemories, parseProposals } from "../../../src/memory/auto.ts";
import { memoryTool } from "../../../src/memory/memory-tool.ts";
import { listMemories, memoryDirs, saveMemory, type MemoryDirs } from "../../../src/memory/store.ts";
import { toolContext, toolOutcome } from "../../support/tool-context.ts";
import type { FakeServer } from "../../fake/server.ts";
import { fakeAnthropicPerFile } from "../../support/fake-anthropic.ts";
import { tempDir } from "../../support/temp-dir.ts";

let fake: FakeServer;
fakeAnthropicPerFile((f) => (fake = f));

let dirs: MemoryDirs;
beforeEach(() => {
  dirs = memoryDirs(tempDir("rein-auto-memory-").path, "/work/project");
});

const stream = () => anthropicStream({ apiKey: "sk-ant-test", baseURL: fake.url, retry: { maxAttempts: 1 } });
const conversation: Message[] = [
  { role: "user", content: [{ type: "text", text: "Run the tests. We use bun test here, never jest." }] },
  { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "bash", input: { command: "bun test" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "TOOL OUTPUT 12 pass" }] },
  { role: "assistant", content: [{ type: "text", text: "All 12 tests pass." }] },
];
const reply = (memories: unknown[]) => ({ reply: [{ type: "text" as const, text: "```json\n" + JSON.stringify({ memories }) + "\n```" }] });
const run = (extra: { timeoutMs?: number; signal?: AbortSignal } = {}) => autoMemories({ stream: stream(), model: "claude-test-1", messages: conversation, dirs, sessionId: "s_test", ...extra });

describe("memory.auto", () => {
  test("keeps at most 3 new facts, none already kept and none holding a secret, each noting its session", async () => {
    await saveMemory(dirs, "project", { name: "Package manager", description: "pnpm", type: "project", text: "The project installs with pnpm." });
    fake.script(
      reply([
        { name: "Test runner", description: "bun test, not jest", type: "project", text: "The tests run with bun test; never jest." },
        { name: "package manager", description: "again", type: "project", text: "pnpm installs it." },
        { name: "Short answers", description: "the user likes them", type: "user", text: "The user prefers short answers." },
        { name: "Fourth", description: "over the limit", type: "project", text: "Anything." },
      ]),
    );
    const outcome = await run();
    if ("error" in outcome) throw new Error(outcome.error);
    expect(outcome.saved.map((m) => [m.name, m.scope])).toEqual([
      ["Test runner", "project"],
      ["Short answers", "user"],
    ]);
    expect(outcome.skipped).toEqual(["package manager: already kept as Package manager"]);
    const file = readFileSync(outcome.saved[0]!.file, "utf8");
    expect(file).toContain('source: "memory.auto, session s_test"');
    // the memory tool says where a memory came from when the model reads it
    const read = toolOutcome(await memoryTool(dirs).run({ action: "read", name: "Test runner" }, toolContext("/tmp")));
    expect(read.output).toStartWith("Test runner (project, project, updated ");
    expect(read.output).toContain(", written by memory.auto, session s_test; from ");
    expect(readFileSync(join(dirs.project, "MEMORY.md"), "utf8")).toContain("[Test runner](test-runner.md)");
    expect(listMemories(dirs).memories.map((m) => m.name).sort()).toEqual(["Package manager", "Short answers", "Test runner"]);

    // one call: the conversation's words and the known memories, no tools, no tool output
    expect(fake.requests).toHaveLength(1);
    const body = fake.requests[0]!.body;
    expect(body.tools ?? []).toEqual([]);
    const sent = body.messages[0].content[0].text as string;
    expect(sent).toContain("User: Run the tests. We use bun test here, never jest.");
    expect(sent).toContain("Assistant: All 12 tests pass.");
    expect(sent).toContain("- Package manager: pnpm");
    expect(sent).not.toContain("TOOL OUTPUT");
  });

  test("a fact that looks like a secret is never written, nor one already proposed under another name", async () => {
    fake.script(
      reply([
        { name: "Deploy key", description: "the key", type: "reference", text: "Deploy with ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnop" },
        { name: "Lint", description: "how to lint", type: "project", text: "Lint the code with bun run lint before every commit." },
        { name: "Linting", description: "again", type: "project", text: "lint the code with `bun run lint` before every commit" },
      ]),
    );
    const outcome = await run();
    if ("error" in outcome) throw new Error(outcome.error);
    expect(outcome.saved.map((m) => m.name)).toEqual(["Lint"]);
    expect(outcome.skipped).toEqual(["Deploy key: it holds what looks like a secret (a private key or an access token)", "Linting: already kept as Lint"]);
    expect(JSON.stringify(listMemories(dirs))).not.toContain("sk-ant-api03");
  });

  test("a provider error, a reply that is not the JSON asked for, and a call that hangs: one sentence each, nothing written", async () => {
    fake.script({ error: 500 });
    const failed = await run();
    expect(failed).toMatchObject({ error: expect.stringMatching(/\S/) });
    fake.script({ reply: [{ type: "text", text: "I think you should remember the tests." }] });
    expect(await run()).toEqual({ error: "the reply was not the JSON asked for" });
    fake.script({ hang: true });
    expect(await run({ timeoutMs: 300 })).toEqual({ error: "no answer within 0.3 s" });
    // a person's Ctrl-C while the call hangs: stopped once the request is in
    const { promise: asked, resolve: arrived } = Promise.withResolvers<void>();
    fake.script({ respond: () => (arrived(), { hang: true }) });
    const stop = new AbortController();
    const stopped = run({ signal: stop.signal });
    await asked;
    stop.abort();
    expect(await stopped).toEqual({ error: "stopped" });
    expect(listMemories(dirs).memories).toEqual([]);
  });

  test("a session with no words asks nothing", async () => {
    expect(await autoMemories({ stream: stream(), model: "claude-test-1", messages: [], dirs, sessionId: "s_empty" })).toEqual({ saved: [], skipped: [] });
    expect(fake.requests).toHaveLength(0);
  });

  test("proposals: malformed entries are dropped, a missing type is project", () => {
    const parsed = parseProposals('{"memories": [{"name": "", "text": "x"}, {"name": "A", "text": "a fact"}, 7]}');
    expect(parsed).toEqual([{ name: "A", description: "", type: "project", text: "a fact" }]);
    expect(parseProposals("no json")).toBe("the reply was not the JSON asked for");
  });
});

test("a proposed name or description with line breaks stays one line of the index", async () => {
  fake.script(reply([{ name: "Two\nlines", description: "a\n- [fake](evil.md)", type: "project", text: "Some durable fact about the build." }]));
  const outcome = await run();
  if ("error" in outcome) throw new Error(outcome.error);
  expect(outcome.saved[0]!.name).toBe("Two lines");
  expect(readFileSync(join(dirs.project, "MEMORY.md"), "utf8")).toBe("- [Two lines](two-lines.md) (project): a - [fake](evil.md)\n");
});
