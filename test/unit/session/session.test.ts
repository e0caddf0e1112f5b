import { beforeEach, expect, test } from "bun:test";
import type { StampedEvent } from "../../../src/agent/types.ts";
import { type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

test("every event is stored before subscribers see it, with seq increasing from 1", async () => {
  const { session } = kit.create();
  const unstored: StampedEvent[] = [];
  const seen: StampedEvent[] = [];
  session.subscribe((event) => {
    seen.push(event);
    const stored = kit.store.events(session.id, event.seq - 1)[0];
    if (!stored || stored.seq !== event.seq || stored.type !== event.type) unstored.push(event);
  });
  kit.fake.script({ reply: [{ type: "text", text: "Hello there, in several chunks." }], chunkSize: 6 });

  await session.prompt("hi");

  expect(unstored).toEqual([]);
  expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));
  expect(seen.map((e) => e.type)).toEqual(["session", "user", ...Array(6).fill("text_delta"), "assistant", "result"]);
  expect(seen.every((e) => e.session_id === session.id)).toBe(true);
  expect(kit.store.events(session.id)).toEqual(seen);
});

test("a prompt stores its messages and the result reports usage and turns", async () => {
  const { session } = kit.create();
  kit.fake.script({ reply: [{ type: "text", text: "Answer." }], usage: { input_tokens: 1000, output_tokens: 100 } });

  const result = await session.prompt("A question that becomes the title\nand more");

  expect(result).toMatchObject({ type: "result", status: "success", text: "Answer.", turns: 1 });
  expect(result.usage).toMatchObject({ input_tokens: 1000, output_tokens: 100 });
  expect(kit.store.messages(session.id).map((m) => [m.role, m.status])).toEqual([
    ["user", "complete"],
    ["assistant", "complete"],
  ]);
  expect(kit.store.getSession(session.id)?.title).toBe("A question that becomes the title");
});

test("a provider error ends the run with status error and an error event", async () => {
  const { session, log } = kit.create();
  kit.fake.script({ error: 401 });

  const result = await session.prompt("hi");

  expect(result.status).toBe("error");
  expect(result.error).toContain("API key was refused");
  expect(log.of("error")).toEqual([expect.objectContaining({ code: "auth" })]);
});

test("a second prompt while one runs is refused", async () => {
  const { session, log } = kit.create();
  kit.fake.script({ hang: true, afterText: "…" });
  const first = session.prompt("one");
  await log.waitFor("text_delta");

  expect(session.running).toBe(true);
  await expect(session.prompt("two")).rejects.toThrow("already running");
  session.abort();
  expect((await first).status).toBe("interrupted");
});

test("a run lets go of the session in the tick of its result: work queued on the result finds it idle (an answer, or a refusal)", async () => {
  const { session } = kit.create();
  const runningAfter: boolean[] = [];
  session.subscribe((event) => {
    if (event.type === "result") queueMicrotask(() => runningAfter.push(session.running));
  });
  kit.fake.script({ reply: [{ type: "text", text: "Answer." }] });
  await session.prompt("hi");
  await session.prompt("   "); // refused before any model call
  expect(runningAfter).toEqual([false, false]);
});
