// Opening a session repairs what a crash left. The crash state is written to a real store exactly as
// a running session writes it; then Session.open must append the right messages, and the next
// prompt must send the provider a valid conversation.
import { beforeEach, describe, expect, test } from "bun:test";
import type { Message } from "../../../src/agent/types.ts";
import { repairMessages } from "../../../src/session/repair.ts";
import { Session } from "../../../src/session/session.ts";
import { crashWriter } from "../../support/crash-state.ts";
import { conversationProblems, sentMessages, type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
let n = 0;
beforeEach(() => {
  kit = useShared();
});

const crashed = () => crashWriter(kit.store, `s_crash_${++n}`, kit.dir.path);
const text = (t: string) => [{ type: "text" as const, text: t }];
const call = (id: string, command: string) => ({ type: "tool_use" as const, id, name: "bash", input: { command } });

/** Prompts the reopened session and returns what the provider was sent. */
async function nextRequest(session: Session): Promise<Message[]> {
  kit.fake.script({ reply: text("Picking up where we left off.") });
  const result = await session.prompt("continue");
  expect(result.status).toBe("success");
  const sent = sentMessages(kit.fake.requests.at(-1));
  expect(conversationProblems(sent)).toEqual([]);
  return sent;
}

describe("a reply that was streaming", () => {
  test("the streamed text becomes an assistant message, marked repaired", async () => {
    const w = crashed();
    w.user("explain the build");
    w.event({ type: "text_delta", text: "The build " });
    w.event({ type: "text_delta", text: "runs in two" });

    const session = Session.open(w.row, kit.options());

    const repaired: Message = { role: "assistant", content: text("The build runs in two") };
    expect(session.history()).toEqual([{ role: "user", content: text("explain the build") }, repaired]);
    const stored = kit.store.messages(w.row.id);
    expect(stored.at(-1)).toMatchObject({ ...repaired, status: "repaired", seq: kit.store.lastSeq(w.row.id) });
    expect(await nextRequest(session)).toEqual([
      { role: "user", content: text("explain the build") },
      repaired,
      { role: "user", content: text("continue") },
    ]);
  });

  test("a retry restarts the reply: only the text after the last retry is kept", () => {
    const w = crashed();
    w.user("hello");
    w.event({ type: "text_delta", text: "Hel" });
    w.event({ type: "retry", attempt: 1, delay_ms: 1000, reason: "overloaded" });
    w.event({ type: "text_delta", text: "Hi " });
    w.event({ type: "text_delta", text: "there" });

    const session = Session.open(w.row, kit.options());

    expect(session.history().at(-1)).toEqual({ role: "assistant", content: text("Hi there") });
  });

  test("a retry with nothing streamed after it leaves no reply to repair", async () => {
    const w = crashed();
    w.user("hello");
    w.event({ type: "text_delta", text: "Hel" });
    w.event({ type: "retry", attempt: 1, delay_ms: 1000, reason: "overloaded" });

    const session = Session.open(w.row, kit.options());

    expect(session.history()).toEqual([{ role: "user", content: text("hello") }]);
    expect(kit.store.messages(w.row.id)).toHaveLength(1);
    expect((await nextRequest(session)).map((m) => m.role)).toEqual(["user", "user"]);
  });

  test("text streamed in an earlier, finished turn is not repaired again", () => {
    const w = crashed();
    w.user("one");
    w.event({ type: "text_delta", text: "First answer." });
    w.assistant(text("First answer."));
    w.user("two");

    const session = Session.open(w.row, kit.options());

    expect(session.history().map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  test("the next turn's partial text after tool results becomes the reply", async () => {
    const w = crashed();
    w.user("list");
    w.assistant([call("toolu_ls", "ls")]);
    w.event({ type: "tool_start", id: "toolu_ls", name: "bash", input: { command: "ls" } });
    w.event({ type: "tool_end", id: "toolu_ls", name: "bash", is_error: false, output: "a\nb", truncated: false });
    w.results({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_ls", content: "a\nb" }] });
    w.event({ type: "text_delta", text: "There are two" });

    const session = Session.open(w.row, kit.options());

    expect(session.history().at(-1)).toEqual({ role: "assistant", content: text("There are two") });
    expect((await nextRequest(session)).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  });
});

describe("tool calls that were running", () => {
  test("a call with a tool_end gets its recorded result; one without gets an Interrupted error", async () => {
    const w = crashed();
    w.user("check both");
    w.assistant([...text("Running both."), call("toolu_done", "git status"), call("toolu_cut", "make test")]);
    w.event({ type: "tool_start", id: "toolu_done", name: "bash", input: { command: "git status" } });
    w.event({ type: "tool_end", id: "toolu_done", name: "bash", is_error: false, output: "clean", truncated: false });
    w.event({ type: "tool_start", id: "toolu_cut", name: "bash", input: { command: "make test" } });
    w.event({ type: "tool_output", id: "toolu_cut", chunk: "running 40 tests" });

    const session = Session.open(w.row, kit.options());

    const repaired = session.history().at(-1)!;
    expect(repaired.role).toBe("user");
    expect(repaired.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_done", content: "clean" },
      { type: "tool_result", tool_use_id: "toolu_cut", is_error: true, content: expect.stringContaining("Interrupted") },
    ]);
    expect(kit.store.messages(w.row.id).at(-1)).toMatchObject({ role: "user", status: "repaired" });
    const sent = await nextRequest(session);
    expect(sent[2]).toEqual(repaired);
  });

  test("an error result recorded before the crash stays an error", () => {
    const w = crashed();
    w.user("run it");
    w.assistant([call("toolu_fail", "false")]);
    w.event({ type: "tool_end", id: "toolu_fail", name: "bash", is_error: true, output: "[exit code 1]", truncated: false });

    const session = Session.open(w.row, kit.options());

    expect(session.history().at(-1)!.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_fail", is_error: true, content: "[exit code 1]" },
    ]);
  });

  test("tool_end events of an earlier turn do not answer a later call with the same id", () => {
    const w = crashed();
    w.user("again");
    w.assistant([call("toolu_same", "date")]);
    w.event({ type: "tool_end", id: "toolu_same", name: "bash", is_error: false, output: "old result", truncated: false });
    w.results({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_same", content: "old result" }] });
    w.assistant([call("toolu_same", "date")]);

    const session = Session.open(w.row, kit.options());

    const last = session.history().at(-1)!;
    expect(last.content).toEqual([expect.objectContaining({ tool_use_id: "toolu_same", is_error: true })]);
  });
});

describe("opening", () => {
  test("a session that ended cleanly is opened unchanged", () => {
    const w = crashed();
    w.user("hi");
    w.event({ type: "text_delta", text: "Hello!" });
    w.assistant(text("Hello!"));
    w.event({ type: "result", status: "success", text: "Hello!", usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, cost_usd: 0, turns: 1, duration_ms: 5 });

    const session = Session.open(w.row, kit.options());

    expect(session.history()).toHaveLength(2);
    expect(kit.store.messages(w.row.id).map((m) => m.status)).toEqual(["complete", "complete"]);
  });

  test("repair is done once: opening again appends nothing more", () => {
    const w = crashed();
    w.user("do it");
    w.assistant([call("toolu_once", "make")]);

    Session.open(w.row, kit.options());
    const again = Session.open(w.row, kit.options());

    expect(again.history()).toHaveLength(3);
    expect(kit.store.messages(w.row.id).map((m) => m.status)).toEqual(["complete", "complete", "repaired"]);
  });
});

describe("repairMessages (pure)", () => {
  test("only events after the last kept message count, even when given the whole log", () => {
    const w = crashed();
    w.user("again");
    w.assistant([call("toolu_same", "date")]);
    w.event({ type: "tool_end", id: "toolu_same", name: "bash", is_error: false, output: "old result", truncated: false });
    w.results({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_same", content: "old result" }] });
    w.event({ type: "text_delta", text: "stale text from before" });
    w.assistant([call("toolu_same", "date")]);

    const repairs = repairMessages(kit.store.messages(w.row.id), kit.store.events(w.row.id));

    expect(repairs).toEqual([
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_same", is_error: true, content: expect.stringContaining("Interrupted") }],
      },
    ]);
  });

  test("an empty session needs no repair", () => {
    expect(repairMessages([], [])).toEqual([]);
  });
});
