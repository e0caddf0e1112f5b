// The agent loop driven through a real Session: the fake server answers through the real SDK,
// events and messages land in a real SQLite store, tools are real (defined here, or tools/bash.ts).
import { beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import bash from "../../../tools/bash.ts";
import type { ToolResultBlock } from "../../../src/agent/types.ts";
import { defineTool } from "../../../src/sdk.ts";
import type { Ask } from "../../../src/session/broker.ts";
import { conversationProblems, sentMessages, sentResults, type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const finalText = { reply: [{ type: "text" as const, text: "All done." }] };

/** A tool that records each input it runs with. */
function counted(name: string) {
  const runs: unknown[] = [];
  const tool = defineTool({
    name,
    description: `The ${name} tool`,
    input: v.object({ path: v.string() }),
    run: (input) => {
      runs.push(input);
      return `${name} ran on ${input.path}`;
    },
  });
  return { tool, runs };
}

describe("failures at the tool boundary are results the model reads", () => {
  test("an unknown tool gets an error listing the available tools, and the loop goes on", async () => {
    const read = counted("read");
    const grep = counted("grep");
    const { session } = kit.create({ tools: [read.tool, grep.tool] });
    kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_x", name: "delete_everything", input: {} }] }, finalText);

    const result = await session.prompt("clean up");

    expect(result.status).toBe("success");
    expect(result.text).toBe("All done.");
    expect(kit.fake.requests).toHaveLength(2);
    const [block] = sentResults(kit.fake.requests[1]);
    expect(block).toMatchObject({ tool_use_id: "toolu_x", is_error: true });
    expect(block!.content).toContain('Unknown tool "delete_everything"');
    expect(block!.content).toContain("Available tools: read, grep");
  });

  test("invalid input gets an error naming the problem and giving the JSON schema; the tool does not run", async () => {
    const read = counted("read");
    const { session } = kit.create({ tools: [read.tool] });
    kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_bad", name: "read", input: { path: 42 } }] }, finalText);

    await session.prompt("read something");

    expect(read.runs).toEqual([]);
    const [block] = sentResults(kit.fake.requests[1]);
    expect(block!.is_error).toBe(true);
    expect(block!.content).toContain('Invalid input for tool "read"');
    expect(block!.content).toMatch(/- path: .*string/i);
    const schema = kit.fake.requests[0]!.body.tools.find((t: { name: string }) => t.name === "read").input_schema;
    expect(block!.content).toContain(`Expected schema: ${JSON.stringify(schema)}`);
  });

  test("a tool that throws gets a 'failed: <message>' error result", async () => {
    const boom = defineTool({
      name: "boom",
      description: "Always throws",
      input: v.object({}),
      run: () => {
        throw new Error("the disk caught fire");
      },
    });
    const { session, log } = kit.create({ tools: [boom] });
    kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_boom", name: "boom", input: {} }] }, finalText);

    const result = await session.prompt("go");

    expect(result.status).toBe("success");
    const [block] = sentResults(kit.fake.requests[1]);
    expect(block).toEqual({ type: "tool_result", tool_use_id: "toolu_boom", is_error: true, content: 'Tool "boom" failed: the disk caught fire' });
    expect(log.of("tool_end")).toEqual([expect.objectContaining({ id: "toolu_boom", is_error: true })]);
  });

  test("a call cut by max_tokens is not run; the model is told its input was cut off", async () => {
    let ran = false;
    const write = defineTool({
      name: "write",
      description: "Writes a file",
      input: v.object({ path: v.string(), content: v.string() }),
      run: () => ((ran = true), "written"),
    });
    const { session } = kit.create({ tools: [write] });
    kit.fake.script(
      {
        maxTokensCut: [
          { type: "text", text: "Writing it now." },
          { type: "tool_use", id: "toolu_long", name: "write", input: { path: "big.txt", content: "y".repeat(400) } },
        ],
      },
      finalText,
    );

    await session.prompt("write a big file");

    expect(ran).toBe(false);
    const messages = sentMessages(kit.fake.requests[1]);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Writing it now." },
        { type: "tool_use", id: "toolu_long", name: "write", input: {} },
      ],
    });
    const [block] = sentResults(kit.fake.requests[1]);
    expect(block!.is_error).toBe(true);
    expect(block!.content).toContain("output token limit");
    expect(block!.content).toContain("cut off");
    expect(block!.content).toContain("did not run");
  });
});

describe("tool output the model reads is bounded", () => {
  for (const isError of [false, true]) {
    test(`a huge ${isError ? "failed" : "successful"} output is cut to head and tail, the full text saved`, async () => {
      const huge = `HEAD${"x".repeat(200_000)}TAIL`;
      const spew = defineTool({ name: "spew", description: "Prints a lot", input: v.object({}), run: () => ({ output: huge, isError }) });
      const { session, log } = kit.create({ tools: [spew] });
      kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_spew", name: "spew", input: {} }] }, finalText);

      await session.prompt("print everything");

      const [block] = sentResults(kit.fake.requests[1]);
      if (typeof block!.content !== "string") throw new Error("expected text content");
      expect(block!.content.length).toBeLessThan(40_000);
      expect(block!.content.startsWith("HEAD")).toBe(true);
      expect(block!.content.endsWith("TAIL")).toBe(true);
      expect(block!.is_error).toBe(isError ? true : undefined);
      const saved = block!.content.match(/saved at (\S+?\.txt)/)?.[1];
      expect(saved).toBeDefined();
      expect(await Bun.file(saved!).text()).toBe(huge);
      expect(log.of("tool_end")[0]).toMatchObject({ truncated: true, is_error: isError });
    });
  }
});

describe("running a turn's calls", () => {
  test("read-only calls in one turn run concurrently", async () => {
    // Each waits until the other has started: run one after the other, the first would never see the second.
    const started = { a: Promise.withResolvers<void>(), b: Promise.withResolvers<void>() };
    const deadlock = Promise.withResolvers<string>();
    const guard = setTimeout(() => deadlock.resolve("never saw the other start"), 1500);
    const peer = defineTool({
      name: "peer",
      description: "Waits for its peer",
      input: v.object({ name: v.picklist(["a", "b"]) }),
      readOnly: true,
      run: async ({ name }) => {
        started[name].resolve();
        const other = name === "a" ? "b" : "a";
        return Promise.race([started[other].promise.then(() => `${name} saw ${other} running`), deadlock.promise]);
      },
    });
    const { session } = kit.create({ tools: [peer] });
    kit.fake.script(
      {
        reply: [
          { type: "tool_use", id: "toolu_a", name: "peer", input: { name: "a" } },
          { type: "tool_use", id: "toolu_b", name: "peer", input: { name: "b" } },
        ],
      },
      finalText,
    );

    await session.prompt("look around");
    clearTimeout(guard);

    expect(sentResults(kit.fake.requests[1])).toEqual([
      { type: "tool_result", tool_use_id: "toolu_a", content: "a saw b running" },
      { type: "tool_result", tool_use_id: "toolu_b", content: "b saw a running" },
    ]);
  });

  test("calls that are not read-only run one at a time, in order, and split read-only groups", async () => {
    const log: string[] = [];
    const yieldTicks = async () => {
      for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    };
    const make = (name: string, readOnly: boolean) =>
      defineTool({
        name,
        description: name,
        input: v.object({ n: v.number() }),
        readOnly,
        run: async ({ n }) => {
          log.push(`start ${name}${n}`);
          await yieldTicks();
          log.push(`end ${name}${n}`);
          return `${name}${n}`;
        },
      });
    const { session } = kit.create({ tools: [make("write", false), make("look", true)] });
    const call = (name: string, n: number) => ({ type: "tool_use" as const, id: `toolu_${name}${n}`, name, input: { n } });
    kit.fake.script({ reply: [call("write", 1), call("write", 2), call("look", 1), call("write", 3), call("look", 2)] }, finalText);

    await session.prompt("edit");

    expect(log).toEqual([
      "start write1",
      "end write1",
      "start write2",
      "end write2",
      "start look1",
      "end look1",
      "start write3",
      "end write3",
      "start look2",
      "end look2",
    ]);
    expect(sentResults(kit.fake.requests[1]).map((b) => b.tool_use_id)).toEqual([
      "toolu_write1",
      "toolu_write2",
      "toolu_look1",
      "toolu_write3",
      "toolu_look2",
    ]);
  });
});

describe("permissions", () => {
  test("the 4th identical call in a row asks, with a reason; the first three ran without asking", async () => {
    const check = counted("check");
    const asks: Ask[] = [];
    const { session, log } = kit.create({
      tools: [check.tool],
      askPolicy: (ask) => {
        asks.push(ask);
        return { reply: "reject" };
      },
    });
    const same = { reply: [{ type: "tool_use" as const, name: "check", input: { path: "status.txt" } }] };
    kit.fake.script(same, same, same, same, finalText);

    const result = await session.prompt("wait until it is ready");

    expect(result.status).toBe("success");
    expect(check.runs).toHaveLength(3);
    expect(asks).toHaveLength(1);
    expect(asks[0]!.reason).toContain("3 times in a row");
    const [ask] = log.of("permission_ask");
    expect(ask).toMatchObject({ tool: "check", reason: asks[0]!.reason });
    // The ask came after the third run had ended, not before any of them.
    const endsBefore = log.events.filter((e) => e.type === "tool_end" && e.seq < ask!.seq);
    expect(endsBefore).toHaveLength(3);
    const [fourth] = sentResults(kit.fake.requests[4]);
    expect(fourth!.is_error).toBe(true);
    expect(fourth!.content).toContain("rejected");
  });

  test("maxTurns ends the run with status max_turns", async () => {
    const check = counted("check");
    const { session } = kit.create({ tools: [check.tool], maxTurns: 2 });
    kit.fake.script(
      { reply: [{ type: "tool_use", name: "check", input: { path: "1" } }] },
      { reply: [{ type: "tool_use", name: "check", input: { path: "2" } }] },
    );

    const result = await session.prompt("loop forever");

    expect(result.status).toBe("max_turns");
    expect(result.turns).toBe(2);
    expect(result.error).toContain("2 turns");
    expect(kit.fake.requests).toHaveLength(2);
    expect(check.runs).toHaveLength(2);
  });

  test("a deny rule gives an error result saying it was denied; the tool does not run and no one is asked", async () => {
    const remove = counted("remove");
    const { session, log } = kit.create({
      tools: [remove.tool],
      rules: [
        { permission: "*", pattern: "*", action: "allow" },
        { permission: "remove", pattern: "*", action: "deny" },
      ],
    });
    kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_rm", name: "remove", input: { path: "/" } }] }, finalText);

    const result = await session.prompt("remove it");

    expect(result.status).toBe("success");
    expect(remove.runs).toEqual([]);
    expect(log.of("permission_ask")).toEqual([]);
    const [block] = sentResults(kit.fake.requests[1]);
    expect(block!.is_error).toBe(true);
    expect(block!.content).toContain("Permission denied");
    expect(block!.content).toContain('by the rule "remove"');
  });

  test("a rejection with a message goes back to the model as the result, and the loop goes on", async () => {
    const migrate = counted("migrate");
    const { session, log } = kit.create({ tools: [migrate.tool], rules: [] });
    void log.waitFor("permission_ask").then((ask) => session.reply(ask.id, "reject", "use the staging database instead"));
    kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_mig", name: "migrate", input: { path: "prod" } }] }, finalText);

    const result = await session.prompt("migrate");

    expect(result.status).toBe("success");
    expect(migrate.runs).toEqual([]);
    const [block] = sentResults(kit.fake.requests[1]);
    expect(block!.is_error).toBe(true);
    expect(block!.content).toContain("rejected");
    expect(block!.content).toContain("use the staging database instead");
    expect(log.of("permission_reply")).toEqual([
      expect.objectContaining({ reply: "reject", message: "use the staging database instead" }),
    ]);
  });

  test('an ask answered "always" through session.reply is not asked again for the same call', async () => {
    const touched: string[] = [];
    const touch = defineTool({
      name: "touch",
      description: "Creates a file",
      input: v.object({ path: v.string() }),
      permissions: ({ path }) => [{ permission: "edit", pattern: path, always: [path] }],
      run: ({ path }) => (touched.push(path), `touched ${path}`),
    });
    const { session, log } = kit.create({ tools: [touch], rules: [] });
    const answers = ["always", "once"] as const;
    const replies: boolean[] = [];
    session.subscribe((event) => {
      if (event.type !== "permission_ask") return;
      const answer = answers[log.of("permission_ask").length - 1]!;
      queueMicrotask(() => replies.push(session.reply(event.id, answer)));
    });
    const touchCall = (path: string) => ({ reply: [{ type: "tool_use" as const, name: "touch", input: { path } }] });
    kit.fake.script(touchCall("a.txt"), touchCall("a.txt"), touchCall("b.txt"), finalText);

    const result = await session.prompt("touch files");

    expect(result.status).toBe("success");
    expect(touched).toEqual(["a.txt", "a.txt", "b.txt"]);
    const asks = log.of("permission_ask");
    expect(asks.map((a) => a.requests.map((r) => r.pattern))).toEqual([["a.txt"], ["b.txt"]]);
    expect(replies).toEqual([true, true]);
    expect(log.of("permission_reply").map((r) => r.reply)).toEqual(["always", "once"]);
    expect(session.reply(asks[0]!.id, "once")).toBe(false);
  });
});

describe("abort", () => {
  test("an abort while the reply streams ends interrupted and keeps the partial text as an assistant message", async () => {
    const { session, log } = kit.create();
    kit.fake.script({ hang: true, afterText: "Here is the beginning of my" });
    void log.waitFor("text_delta").then(() => session.abort());

    const result = await session.prompt("explain");

    expect(result.status).toBe("interrupted");
    expect(result.text).toBe("Here is the beginning of my");
    expect(session.history().at(-1)).toEqual({ role: "assistant", content: [{ type: "text", text: "Here is the beginning of my" }] });
    const stored = kit.store.messages(session.id);
    expect(stored.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "interrupted"],
    ]);
    expect(stored[1]!.content).toEqual([{ type: "text", text: "Here is the beginning of my" }]);
    expect(session.running).toBe(false);

    // The session stays usable: the next prompt sends the partial reply, in a valid conversation.
    kit.fake.script(finalText);
    expect((await session.prompt("go on")).status).toBe("success");
    const sent = sentMessages(kit.fake.requests[1]);
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(sent[1]!.content).toEqual([{ type: "text", text: "Here is the beginning of my" }]);
  });

  test("a tool that throws because it was aborted gets an 'Interrupted' result, not 'failed'", async () => {
    const running = Promise.withResolvers<void>();
    const waiter = defineTool({
      name: "waiter",
      description: "Waits for an abort, then throws",
      input: v.object({}),
      run: (_input, ctx) =>
        new Promise<string>((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => reject(new Error("AbortError")));
          running.resolve();
        }),
    });
    const { session } = kit.create({ tools: [waiter] });
    kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_wait", name: "waiter", input: {} }] });
    void running.promise.then(() => session.abort());

    const result = await session.prompt("wait");

    expect(result.status).toBe("interrupted");
    expect(session.history().at(-1)!.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_wait", is_error: true, content: "Interrupted by the user." },
    ]);
  });

  test("an abort while a permission ask is open closes the ask; the tool does not run", async () => {
    const deploy = counted("deploy");
    const { session, log } = kit.create({ tools: [deploy.tool], rules: [] });
    kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_deploy", name: "deploy", input: { path: "prod" } }] });
    void log.waitFor("permission_ask").then(() => session.abort());

    const result = await session.prompt("ship it");

    expect(result.status).toBe("interrupted");
    expect(deploy.runs).toEqual([]);
    expect(session.pendingAsks()).toEqual([]);
    expect(log.of("permission_reply")).toEqual([expect.objectContaining({ reply: "reject" })]);
    const last = session.history().at(-1)!;
    expect(last.content).toEqual([expect.objectContaining({ tool_use_id: "toolu_deploy", is_error: true })]);
    expect(conversationProblems(session.history())).toEqual([]);
  });

  test("an abort while bash runs `sleep 30` returns promptly; the tool result says interrupted", async () => {
    const { session, log } = kit.create({ tools: [bash], rules: [{ permission: "bash", pattern: "*", action: "allow" }] });
    kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_sleep", name: "bash", input: { command: "echo started; sleep 30" } }] });
    void log.waitFor("tool_output", (e) => e.chunk.includes("started")).then(() => session.abort());
    const began = performance.now();

    const result = await session.prompt("wait a while");

    expect(performance.now() - began).toBeLessThan(3000);
    expect(result.status).toBe("interrupted");
    expect(kit.fake.requests).toHaveLength(1);
    const last = session.history().at(-1)!;
    expect(last.role).toBe("user");
    const block = last.content[0] as ToolResultBlock;
    expect(block).toMatchObject({ tool_use_id: "toolu_sleep", is_error: true });
    expect(block.content).toContain("started");
    expect(block.content).toContain("interrupted");
    expect(log.of("tool_end")[0]).toMatchObject({ id: "toolu_sleep", is_error: true });
    expect(conversationProblems(session.history())).toEqual([]);
  });
});

describe("images", () => {
  test("images a tool returns reach the model inside the tool result; the event carries no image data", async () => {
    const data = readFileSync(join(import.meta.dir, "../../fixtures/images/red.png")).toString("base64");
    const look = defineTool({
      name: "look",
      description: "Looks at a picture",
      input: v.object({}),
      permissions: () => [],
      run: () => ({ output: "a picture", images: [{ mediaType: "image/png", base64: data }] }),
    });
    const { session, log } = kit.create({ tools: [look] });
    kit.fake.script({ reply: [{ type: "tool_use", id: "toolu_look", name: "look", input: {} }] }, finalText);
    await session.prompt("look");
    const [block] = sentResults(kit.fake.requests[1]);
    expect(block!.content).toEqual([
      { type: "text", text: "a picture" },
      { type: "image", source: { type: "base64", media_type: "image/png", data } },
    ]);
    expect(JSON.stringify(log.events.filter((e) => e.type === "tool_end"))).not.toContain(data);
  });
});

describe("an empty final reply", () => {
  test("no text and no tool call (or only whitespace) ends the run as an error that says so", async () => {
    for (const reply of [[], [{ type: "text" as const, text: "  \n" }]]) {
      const { session, log } = kit.create();
      kit.fake.script({ reply });
      const result = await session.prompt("hello?");
      expect(result).toMatchObject({ status: "error", text: "" });
      expect(result.error).toContain("the model sent an empty reply (stop reason end_turn)");
      expect(log.events.find((e) => e.type === "error")).toMatchObject({ code: "empty_reply" });
      kit.fake.reset();
    }
  });

  test("after tool calls too: the earlier text is not passed off as the answer", async () => {
    const read = counted("read");
    const { session } = kit.create({ tools: [read.tool] });
    kit.fake.script({ reply: [{ type: "text", text: "Let me look." }, { type: "tool_use", name: "read", input: { path: "a" } }] }, { reply: [] });
    const result = await session.prompt("look");
    expect(result).toMatchObject({ status: "error", text: "" });
  });
});
