// A session that grows far past its window: 300 turns, each a tool call returning a few KB. It
// completes, compacts as it goes, and never sends a request over the window; resumed, it sends the
// compacted view.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { usableWindow } from "../../../src/agent/context-size.ts";
import { longSession, type LongSession } from "../../support/long-session.ts";
import { conversationProblems, sentMessages } from "../../support/session-kit.ts";

const WINDOW = 40_000;
const MAX_TOKENS = 4096;
const TURNS = 300;

let long: LongSession;
beforeAll(async () => {
  long = await longSession(TURNS, WINDOW);
});
afterAll(() => long.close());

test(`${TURNS} turns of tool output: compacts as needed and never sends a request over the window`, async () => {
  const { fake, store, session } = long;

  const result = await long.run();

  expect(result.status).toBe("success");
  expect(result.turns).toBe(TURNS + 1);
  const sizes = fake.requests.map((r) => r.bodyText.length / 4);
  expect(Math.max(...sizes)).toBeLessThanOrEqual(usableWindow(WINDOW, MAX_TOKENS));
  const compactions = long.compactions();
  expect(compactions.length).toBeGreaterThan(2);
  expect(new Set(compactions.map((c) => c.method))).toEqual(new Set(["prune", "summary"]));
  for (const c of compactions) expect(c.tokens_after).toBeLessThan(c.tokens_before);
  const turns = fake.requests.filter((r) => r.body.tools.length > 0);
  expect(turns).toHaveLength(TURNS + 1);
  for (const request of turns) expect(conversationProblems(sentMessages(request))).toEqual([]);
  // The store keeps everything: the prompt, an assistant and a user message a tool call, and the answer.
  expect(store.messages(session.id)).toHaveLength(2 * TURNS + 2);

  // Resumed, the session sends the compacted view, not the full history.
  const before = store.messages(session.id).length;
  const last = compactions.at(-1)!;
  fake.requests.length = 0;
  await long.resume("Thanks; now summarise them.");
  const sent = sentMessages(fake.requests.at(-1));
  const head = compactions.findLast((c) => c.head !== null)!.head!;
  expect(sent[0]).toEqual({ role: "user", content: [{ type: "text", text: head }] });
  // The one request of the session survives its summaries word for word.
  expect(head).toEndWith("[the user's latest request, verbatim]\nRead every part of the file, one a turn.");
  expect(sent).toHaveLength(1 + before + 1 - last.first_kept);
  expect(sent.length).toBeLessThan(before / 2);
  expect(sent.filter((m) => JSON.stringify(m).includes("[output removed to save space")).length).toBe(last.pruned.length);
  expect(fake.requests.at(-1)!.bodyText.length / 4).toBeLessThan(usableWindow(WINDOW, MAX_TOKENS));
  expect(conversationProblems(sent)).toEqual([]);
}, 60_000);
