// A real crash: a child process runs a session against the fake server and is killed with SIGKILL
// mid-reply or mid-tool. Opening the session afterwards repairs it, and the next prompt sends the
// provider a valid conversation.
import { beforeEach, expect, test } from "bun:test";
import type { Message, StampedEvent } from "../../../src/agent/types.ts";
import { Session } from "../../../src/session/session.ts";
import { conversationProblems, sentMessages, type Kit, useKit } from "../../support/session-kit.ts";
import { quick, stall } from "../../support/crash-child.ts";
import { runChildUntil } from "../../support/crash-run.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

/** Runs the child until an event passes `killWhen`, then kills it; returns the session id. */
async function crashAt(prompt: string, killWhen: (event: StampedEvent) => boolean): Promise<string> {
  const { shown, code, signal } = await runChildUntil(kit, prompt, (events) => events.some(killWhen));
  expect(code).not.toBe(0);
  expect(signal).toBe("SIGKILL");
  return shown[0]?.session_id ?? "";
}

function reopen(id: string): Session {
  const row = kit.store.getSession(id);
  if (!row) throw new Error(`session ${id} was not stored`);
  return Session.open(row, kit.options({ tools: [quick, stall] }));
}

async function promptAgain(session: Session) {
  kit.fake.script({ reply: [{ type: "text", text: "Resumed." }] });
  expect((await session.prompt("go on")).status).toBe("success");
  const sent = sentMessages(kit.fake.requests.at(-1));
  expect(conversationProblems(sent)).toEqual([]);
  return sent;
}

test("killed while the reply streams: the streamed text is kept as the assistant's reply", async () => {
  kit.fake.script({ hang: true, afterText: "So far I have found" });

  const id = await crashAt("look into it", (e) => e.type === "text_delta");

  const session = reopen(id);
  const reply: Message = { role: "assistant", content: [{ type: "text", text: "So far I have found" }] };
  expect(session.history().at(-1)).toEqual(reply);
  expect(kit.store.messages(id).at(-1)?.status).toBe("repaired");
  const sent = await promptAgain(session);
  expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  expect(sent[1]).toEqual(reply);
});

test("killed while a tool runs: the finished call keeps its result, the running one is marked interrupted", async () => {
  kit.fake.script({
    reply: [
      { type: "tool_use", id: "toolu_quick", name: "quick", input: {} },
      { type: "tool_use", id: "toolu_stall", name: "stall", input: {} },
    ],
  });

  const id = await crashAt("do both", (e) => e.type === "tool_start" && e.id === "toolu_stall");

  const session = reopen(id);
  expect(session.history().at(-1)).toEqual({
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_quick", content: "quick done" },
      { type: "tool_result", tool_use_id: "toolu_stall", is_error: true, content: expect.stringContaining("Interrupted") },
    ],
  });
  const sent = await promptAgain(session);
  expect(sent[1]!.content.map((b) => b.type)).toEqual(["tool_use", "tool_use"]);
  expect(sent[2]!.content.map((b) => b.type)).toEqual(["tool_result", "tool_result"]);
});
