// Compaction through a real Session: the fake model behind the real SDK, a real SQLite store, a
// small context window. A "prompt too long" answer compacts once and retries; a summary call that
// fails falls back to a cut; a resumed session sends the compacted view.
import { beforeEach, describe, expect, test } from "bun:test";
import type { TextBlock } from "../../../src/agent/types.ts";
import { costUsd } from "../../../src/llm/providers.ts";
import { Session } from "../../../src/session/session.ts";
import { conversationProblems, sentMessages, type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const WINDOW = 20_000;
const tooLong = {
  error: 400,
  body: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 21000 tokens > 20000 maximum" } },
};
const done = { reply: [{ type: "text" as const, text: "Done." }] };
/** About 10,000 tokens: under the 80% mark of the usable window by the estimate, "too long" for the fake. */
const hugePrompt = `Refactor the parser as follows.\n${"x".repeat(40_000)}\nFinally: keep the tests green.`;

function firstText(messages: ReturnType<typeof sentMessages>): string {
  return (messages[0]!.content[0] as TextBlock).text;
}

describe("the provider says the prompt is too long", () => {
  test("on the first turn: summarise once, retry, succeed", async () => {
    const { session, log } = kit.create({ contextWindow: WINDOW });
    kit.fake.script(tooLong, { reply: [{ type: "text", text: "The user wants the parser refactored; keep the tests green." }] }, done);

    const result = await session.prompt(hugePrompt);

    expect(result.status).toBe("success");
    expect(kit.fake.requests).toHaveLength(3);
    const summaryCall = kit.fake.requests[1]!.body;
    expect(summaryCall.tools).toEqual([]);
    expect(summaryCall.system[0].text).toContain("working memory");
    expect(kit.fake.requests[1]!.bodyText.length / 4).toBeLessThan(WINDOW - 4096);
    const retried = sentMessages(kit.fake.requests[2]);
    expect(retried).toHaveLength(1);
    const head = firstText(retried);
    expect(head).toStartWith("[summary of the earlier conversation]\nThe user wants the parser refactored; keep the tests green.\n\n");
    // The latest request survives word for word (clipped to its head and end), after the summary.
    expect(head).toContain("[the user's latest request, verbatim]\nRefactor the parser as follows.");
    expect(head).toEndWith("Finally: keep the tests green.");
    const [compaction] = log.of("compaction");
    expect(compaction).toMatchObject({ method: "summary", first_kept: 1, pruned: [] });
    expect(compaction!.tokens_after).toBeLessThan(compaction!.tokens_before);
    // The hidden call counts in the run's usage.
    const summaryTokens = Math.ceil(kit.fake.requests[1]!.bodyText.length / 4);
    expect(compaction!.usage?.input_tokens).toBe(summaryTokens);
    expect(result.usage.input_tokens).toBe(summaryTokens + Math.ceil(kit.fake.requests[2]!.bodyText.length / 4));
    // The store keeps the full history: the huge prompt is still there.
    expect(kit.store.messages(session.id).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(kit.store.messages(session.id)[0]!.content)).toContain("x".repeat(40_000));
  });

  const failures = {
    "the summary is empty": [{ reply: [{ type: "text" as const, text: "   " }] }],
    "the summary stream is dropped (every retry)": [0, 1, 2].map(() => ({ cut: [{ type: "text" as const, text: "The user wants..." }] })),
    "the summary is itself too long": [{ reply: [{ type: "text" as const, text: "y".repeat(60_000) }] }],
    "the summary call is refused": [tooLong],
  };
  for (const [name, steps] of Object.entries(failures)) {
    test(`${name}: fall back to a cut that keeps the head and end of the request, and succeed`, async () => {
      const { session, log } = kit.create({ contextWindow: WINDOW });
      kit.fake.script(tooLong, ...steps, done);

      const result = await session.prompt(hugePrompt);

      expect(result.status).toBe("success");
      const [compaction] = log.of("compaction");
      expect(compaction).toMatchObject({ method: "cut" });
      expect(compaction!.summary).toContain("[earlier conversation cut");
      const retried = sentMessages(kit.fake.requests.at(-1));
      expect(firstText(retried)).toStartWith("Refactor the parser as follows.");
      expect(firstText(retried)).toContain("Finally: keep the tests green.");
      expect(firstText(retried)).toContain("characters cut");
      expect(kit.fake.requests.at(-1)!.bodyText.length / 4).toBeLessThan((WINDOW - 4096) * 0.6);
    });
  }

  test("still too long after the one compaction: the run ends with the error, no second try", async () => {
    const { session, log } = kit.create({ contextWindow: WINDOW });
    kit.fake.script(tooLong, { reply: [{ type: "text", text: "A summary." }] }, tooLong);

    const result = await session.prompt(hugePrompt);

    expect(result.status).toBe("error");
    expect(kit.fake.requests).toHaveLength(3);
    expect(log.of("compaction")).toHaveLength(1);
    expect(log.of("error")).toEqual([expect.objectContaining({ code: "too_long" })]);
  });

  test("with the model table's window (none given), the provider's word still compacts", async () => {
    const { session, log } = kit.create();
    kit.fake.script(tooLong, { reply: [{ type: "text", text: "A summary." }] }, done);
    expect((await session.prompt("hello")).status).toBe("success");
    expect(log.of("compaction")).toHaveLength(1);
  });
});

describe("over the threshold before sending", () => {
  test("a pasted prompt bigger than the window is compacted before it is sent: no request goes over", async () => {
    const { session, log } = kit.create({ contextWindow: WINDOW });
    kit.fake.script({ reply: [{ type: "text", text: "A long spec for the parser." }] }, done);

    const result = await session.prompt(`Spec:\n${"z".repeat(100_000)}`);

    expect(result.status).toBe("success");
    expect(kit.fake.requests).toHaveLength(2);
    for (const request of kit.fake.requests) expect(request.bodyText.length / 4).toBeLessThan((WINDOW - 4096) * 0.95);
    expect(log.of("compaction")).toEqual([expect.objectContaining({ method: "summary" })]);
    expect(log.of("compaction")[0]!.tokens_before).toBeGreaterThan(25_000);
  });
});

describe("resume", () => {
  test("Session.open applies the latest compaction: the next request sends the compacted view", async () => {
    const { session } = kit.create({ contextWindow: WINDOW });
    kit.fake.script(tooLong, { reply: [{ type: "text", text: "Summary: refactor the parser." }] }, done);
    await session.prompt(hugePrompt);

    const reopened = Session.open(kit.store.getSession(session.id)!, kit.options({ contextWindow: WINDOW }));
    kit.fake.script({ reply: [{ type: "text", text: "Again." }] });
    await reopened.prompt("and now the lexer");

    const sent = sentMessages(kit.fake.requests.at(-1));
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(firstText(sent)).toStartWith("[summary of the earlier conversation]\nSummary: refactor the parser.\n\n[the user's latest request, verbatim]\n");
    expect(sent.slice(1)).toEqual([
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
      { role: "user", content: [{ type: "text", text: "and now the lexer" }] },
    ]);
    expect(conversationProblems(sent)).toEqual([]);
    expect(kit.store.messages(session.id)).toHaveLength(4);
  });
});

/** A question long enough (about 600 tokens) that two of them are worth compacting. */
const long = (question: string) => `${question}\n${"z".repeat(2_400)}`;

/** Two long prompts, each answered: a conversation worth compacting. */
async function twoLongPrompts(session: Session, questions: [string, string], answers: [string, string]): Promise<void> {
  kit.fake.script({ reply: [{ type: "text", text: answers[0] }] }, { reply: [{ type: "text", text: answers[1] }] });
  await session.prompt(long(questions[0]));
  await session.prompt(long(questions[1]));
}

describe("manual compaction (/compact)", () => {
  test("Session.compact(focus) summarises the whole conversation with the focus given; the next prompt sends the summary", async () => {
    const { session, log } = kit.create({ contextWindow: WINDOW });
    await twoLongPrompts(session, ["first question", "second question"], ["First answer.", "Second answer."]);
    kit.fake.script({ reply: [{ type: "text", text: "They asked two questions." }] });

    const outcome = await session.compact("the parser");

    expect(outcome.type).toBe("compacted");
    expect(outcome.text).toMatch(/^compacted: ~\d+ -> ~\d+ tokens \(summarised\)$/);
    const event = outcome.type === "compacted" ? outcome.event : undefined;
    expect(event).toMatchObject({ method: "summary", summary: "They asked two questions." });
    expect(event!.tokens_after).toBeLessThan(event!.tokens_before);
    const transcript: string = kit.fake.requests.at(-1)!.body.messages[0].content[0].text;
    expect(transcript).toContain("Keep above all what concerns: the parser");
    // The whole conversation it replaces, answers included, not only the first message.
    for (const part of ["User: first question", "Assistant: First answer.", "User: second question", "Assistant: Second answer."]) {
      expect(transcript).toContain(part);
    }
    expect(log.of("compaction")).toHaveLength(1);

    kit.fake.script(done);
    await session.prompt("third question");
    const sent = sentMessages(kit.fake.requests.at(-1));
    expect(firstText(sent)).toStartWith("[summary of the earlier conversation]\nThey asked two questions.\n\n[the user's latest request, verbatim]\nsecond question");
    expect(conversationProblems(sent)).toEqual([]);
    expect(sent.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "third question" }] });
  });

  test("a summary that is not smaller than the conversation is not kept: nothing worth compacting, the view unchanged", async () => {
    const { session, log } = kit.create({ contextWindow: WINDOW });
    await twoLongPrompts(session, ["first question", "second question"], ["First answer.", "Second answer."]);
    const before = [...session.history()];
    kit.fake.script({ reply: [{ type: "text", text: "w".repeat(8_000) }], usage: { input_tokens: 700, output_tokens: 2_000 } });

    const outcome = await session.compact();

    expect(outcome).toMatchObject({ type: "nothing", usage: { input_tokens: 700, output_tokens: 2_000 } });
    expect(outcome.text).toStartWith("nothing worth compacting: the conversation (~");
    expect(log.of("compaction")).toEqual([]);
    expect(session.history()).toEqual(before);
    kit.fake.script(done);
    await session.prompt("third question");
    expect(sentMessages(kit.fake.requests.at(-1))).toHaveLength(5);
  });

  test("a small conversation is not worth a summary call", async () => {
    const { session, log } = kit.create({ contextWindow: WINDOW });
    kit.fake.script({ reply: [{ type: "text", text: "First answer." }] }, { reply: [{ type: "text", text: "Second answer." }] });
    await session.prompt("first question");
    await session.prompt("second question");
    const calls = kit.fake.requests.length;

    const outcome = await session.compact();

    expect(outcome.type).toBe("nothing");
    expect(outcome.text).toStartWith("nothing worth compacting");
    expect(kit.fake.requests).toHaveLength(calls);
    expect(log.of("compaction")).toEqual([]);
  });

  test("the compaction event prices its summary call from the model table; null for a model without prices", async () => {
    const priced = kit.create({ contextWindow: WINDOW, model: "claude-sonnet-5-5" });
    await twoLongPrompts(priced.session, ["first question", "second question"], ["First answer.", "Second answer."]);
    kit.fake.script({ reply: [{ type: "text", text: "Two questions." }], usage: { input_tokens: 1000, output_tokens: 100 } });
    const done = await priced.session.compact();
    const event = done.type === "compacted" ? done.event : undefined;
    expect(event?.usage).toMatchObject({ input_tokens: 1000, output_tokens: 100 });
    expect(event?.cost_usd).toBe(costUsd("claude-sonnet-5-5", event!.usage!));
    expect(event?.cost_usd).toBeGreaterThan(0);
    // /compact is outside any run: no result will hold its cost
    expect(event?.outside_run).toBe(true);

    const unpriced = kit.create({ contextWindow: WINDOW });
    kit.fake.script({ reply: [{ type: "text", text: "A." }] }, { reply: [{ type: "text", text: "B." }] }, { reply: [{ type: "text", text: "S." }] });
    await unpriced.session.prompt(long("one"));
    await unpriced.session.prompt(long("two"));
    const compacted = await unpriced.session.compact();
    const other = compacted.type === "compacted" ? compacted.event : undefined;
    expect(other?.usage).toBeDefined();
    expect(other?.cost_usd).toBeNull();
  });

  test("a compaction inside a run: its price is in the run's result, with the turns'", async () => {
    const { session, log } = kit.create({ contextWindow: WINDOW, model: "claude-sonnet-5-5" });
    kit.fake.script(tooLong, { reply: [{ type: "text", text: "Summary." }] }, done);
    const result = await session.prompt(hugePrompt);
    const [compaction] = log.of("compaction");
    const turns = log.of("assistant").map((e) => e.cost_usd!);
    expect(compaction!.cost_usd).toBeGreaterThan(0);
    expect(compaction!.outside_run).toBe(false);
    expect(result.cost_usd).toBeCloseTo(compaction!.cost_usd! + turns.reduce((a, b) => a + b, 0), 6);
  });

  test("compactRun (print mode's --compact): session, compaction, result with turns 0 and the summary call's usage", async () => {
    const { session, log } = kit.create({ contextWindow: WINDOW });
    await twoLongPrompts(session, ["one", "two"], ["A.", "B."]);
    kit.fake.script({ reply: [{ type: "text", text: "Two prompts." }], usage: { input_tokens: 300, output_tokens: 30 } });
    const seen = log.events.length;

    const result = await session.compactRun("the prompts");

    expect(log.events.slice(seen).map((e) => e.type)).toEqual(["compaction", "result"]);
    expect(log.of("compaction")[0]!.outside_run).toBe(false);
    expect(result).toMatchObject({ status: "success", turns: 0, usage: { input_tokens: 300, output_tokens: 30 }, cost_usd: null });
    expect(result.text).toMatch(/^compacted: ~\d+ -> ~\d+ tokens \(summarised\)$/);
  });

  test("an abort while the summary is written leaves the conversation as it was: no compaction, result interrupted", async () => {
    const { session, log } = kit.create({ contextWindow: WINDOW });
    await twoLongPrompts(session, ["one", "two"], ["A.", "B."]);
    const before = [...session.history()];
    let arrived!: () => void;
    const called = new Promise<void>((resolve) => (arrived = resolve));
    kit.fake.script({
      raw: async (req) => {
        arrived();
        await new Promise((resolve) => req.signal.addEventListener("abort", resolve, { once: true }));
        return new Response("gone", { status: 500 });
      },
    });

    const running = session.compactRun();
    await called;
    session.abort();
    const result = await running;

    expect(result).toMatchObject({ status: "interrupted", turns: 0 });
    expect(log.of("compaction")).toEqual([]);
    expect(session.history()).toEqual(before);
  });

  test("nothing to compact in a new session", async () => {
    const { session } = kit.create({ contextWindow: WINDOW });
    expect(await session.compact()).toMatchObject({ type: "nothing", text: expect.stringContaining("nothing worth compacting") });
  });
});

describe("a resumed session", () => {
  test("whose stored history is over the threshold compacts before its first request (the size comes from the stored text)", async () => {
    const row = kit.store.createSession({ id: "s_resumed_big", cwd: kit.dir.path, model: "claude-test-1" });
    for (let i = 0; i < 20; i++) {
      const role = i % 2 === 0 ? ("user" as const) : ("assistant" as const);
      const event = kit.store.appendEvent(row.id, role === "user" ? { type: "user", text: `q${i}` } : { type: "text_delta", text: `a${i}` });
      kit.store.appendMessage(row.id, { role, content: [{ type: "text", text: `${role} ${i} ${"y".repeat(3000)}` }] }, event.seq);
    }
    const session = Session.open(kit.store.getSession(row.id)!, kit.options({ contextWindow: WINDOW }));
    const events: string[] = [];
    session.subscribe((e) => events.push(e.type));
    kit.fake.script({ reply: [{ type: "text", text: "Twenty long messages about y." }] }, done);

    const result = await session.prompt("next");

    expect(result.status).toBe("success");
    expect(events.indexOf("compaction")).toBeGreaterThan(-1);
    expect(events.indexOf("compaction")).toBeLessThan(events.indexOf("assistant"));
    // the answer's request is the compacted one, well inside the window
    expect(kit.fake.requests.at(-1)!.bodyText.length / 4).toBeLessThan(WINDOW * 0.8);
  });
});
