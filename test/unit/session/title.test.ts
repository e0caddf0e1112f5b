import { beforeEach, expect, test } from "bun:test";
import { sessionSpend } from "../../../src/cli/cost-line.ts";
import { Session } from "../../../src/session/session.ts";
import { cleanTitle } from "../../../src/session/title.ts";
import { fakeTitle } from "../../fake/server.ts";
import { type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

test("after the first turn a hidden call names the session: no tools, the request and the answer; stored, and told in a title event after the result", async () => {
  const { session, log } = kit.create();
  // A session made with titleCall (as the terminal, the server and rein acp make theirs).
  const named = Session.create(kit.dir.path, { ...kit.options(), titleCall: true });
  const events: string[] = [];
  named.subscribe((e) => events.push(e.type));
  kit.fake.script({ reply: [{ type: "text", text: "The parser drops the last token." }] }, { reply: [{ type: "text", text: "Fixed." }] });
  await named.prompt("why does the parser fail on 'a b'?\nsecond line");
  expect(kit.store.getSession(named.id)?.title).toBe("why does the parser fail on 'a b'?");
  await named.named();
  expect(kit.store.getSession(named.id)?.title).toBe(fakeTitle("why does the parser fail on 'a b'?"));
  expect(events.slice(-2)).toEqual(["result", "title"]);
  const title = kit.store.events(named.id).at(-1)!;
  expect(title).toMatchObject({ type: "title", title: fakeTitle("why does the parser fail on 'a b'?"), usage: { input_tokens: 60, output_tokens: 6 }, cost_usd: null });
  expect(kit.fake.titleRequests).toHaveLength(1);
  const call = kit.fake.titleRequests[0]!.body;
  expect(call.tools ?? []).toEqual([]);
  expect(call.max_tokens).toBe(40);
  expect(JSON.stringify(call.messages)).toContain("why does the parser fail");
  expect(JSON.stringify(call.messages)).toContain("The parser drops the last token.");
  // One call only, after the first turn; the conversation never holds it.
  await named.prompt("and now?");
  await named.named();
  expect(kit.fake.titleRequests).toHaveLength(1);
  expect(JSON.stringify(kit.fake.requests.at(-1)!.body.messages)).not.toContain("You name a coding session");
  expect(sessionSpend(kit.store.spendEvents(named.id)).usage.output_tokens).toBe(kit.store.events(named.id).filter((e) => e.type === "assistant").reduce((n, e) => n + (e.type === "assistant" ? e.usage.output_tokens : 0), 0) + 6);

  // Print mode's sessions (no titleCall) keep the first line and make no such call.
  kit.fake.script({ reply: [{ type: "text", text: "ok" }] });
  await session.prompt("just once");
  await session.close();
  expect(kit.store.getSession(session.id)?.title).toBe("just once");
  expect(kit.fake.titleRequests).toHaveLength(1);
  expect(log.of("title")).toEqual([]);
});

test("a title is the reply's first line without quotes, a label or a full stop, at most 80 characters", () => {
  expect(cleanTitle('"Fix the parser\'s last token."\nmore')).toBe("Fix the parser's last token");
  expect(cleanTitle("Title: **Parser token bug**")).toBe("Parser token bug");
  expect(cleanTitle("  \n")).toBeUndefined();
  expect(cleanTitle("x".repeat(100))).toBe(`${"x".repeat(77)}...`);
});

test("closing the session gives up a title call still out: it never holds the front end's exit, and the first line stays the title", async () => {
  const base = kit.options();
  let given: AbortSignal | undefined;
  const stream: typeof base.stream = (request, signal) => {
    if (!JSON.stringify(request.system).includes("You name a coding session")) return base.stream(request, signal);
    given = signal;
    return (async function* () {
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      yield { type: "error" as const, message: "aborted", code: "aborted" as never };
    })();
  };
  const session = Session.create(kit.dir.path, { ...base, stream, titleCall: true });
  kit.fake.script({ reply: [{ type: "text", text: "ok" }] });
  await session.prompt("a slow name");
  await Bun.sleep(0);
  expect(given?.aborted).toBe(false);
  await session.close();
  expect(given?.aborted).toBe(true);
  expect(kit.store.getSession(session.id)?.title).toBe("a slow name");
  expect(kit.store.events(session.id).some((e) => e.type === "title")).toBe(false);
});
