// Forking a session: a new id, the same cwd/model, the first N messages and the events up to them,
// always a valid conversation for the provider.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import type { AgentEvent, Message } from "../../../src/agent/types.ts";
import { repairMessages } from "../../../src/session/repair.ts";
import { Store } from "../../../src/session/store.ts";
import { validPrefix } from "../../../src/session/store-fork.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

const NOW = Date.UTC(2026, 10, 29, 12);
const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

let dir: TempDir;
let store: Store;

beforeEach(() => {
  dir = tempDir("rein-fork-");
  store = Store.open(join(dir.path, "rein.db")).store;
});

afterEach(() => {
  store.close();
  dir.remove();
});

const question: Message = { role: "user", content: [{ type: "text", text: "list the files" }] };
const call: Message = { role: "assistant", content: [{ type: "text", text: "looking" }, { type: "tool_use", id: "tu_1", name: "bash", input: { command: "ls" } }] };
const results: Message = { role: "user", content: [{ type: "tool_result", tool_use_id: "tu_1", content: "a.txt" }] };
const answer: Message = { role: "assistant", content: [{ type: "text", text: "there is a.txt" }] };

/** Built with a cast so the test does not depend on every field the assistant event carries. */
const assistant = (message: Message, stop: string, model = "claude-test-1") =>
  ({ type: "assistant", content: message.content, stop_reason: stop, usage, cost_usd: 0, model }) as AgentEvent;

/** Stores a session the way a run does: each message after the event it follows, a result at the end. */
function recorded(id = "s_src"): void {
  store.createSession({ id, cwd: "/work/p", model: "claude-test-1", settings: '{"mode":"plan"}' }, NOW);
  store.updateSession(id, { title: "list the files" }, NOW);
  const emit = (event: AgentEvent) => store.appendEvent(id, event, NOW).seq;
  emit({ type: "session", id, cwd: "/work/p", model: "claude-test-1", version: "0.0.0" });
  store.appendMessage(id, question, emit({ type: "user", text: "list the files" }));
  emit({ type: "text_delta", text: "looking" });
  store.appendMessage(id, call, emit(assistant(call, "tool_use")));
  emit({ type: "tool_start", id: "tu_1", name: "bash", input: { command: "ls" } });
  store.appendMessage(id, results, emit({ type: "tool_end", id: "tu_1", name: "bash", is_error: false, output: "a.txt", truncated: false }));
  emit({ type: "text_delta", text: "there is a.txt" });
  store.appendMessage(id, answer, emit(assistant(answer, "end_turn")));
  emit({ type: "result", status: "success", text: "there is a.txt", usage, cost_usd: 0, turns: 2, duration_ms: 1 });
}

const plain = (messages: { role: string; content: unknown }[]) => messages.map(({ role, content }) => ({ role, content }));

/** Every tool_use is answered by a tool_result in the next message. */
function everyCallAnswered(messages: Message[]): boolean {
  return messages.every((m, i) => {
    const ids = m.content.flatMap((b) => (b.type === "tool_use" ? [(b as { id: string }).id] : []));
    const next = messages[i + 1]?.content ?? [];
    return ids.every((id) => next.some((b) => b.type === "tool_result" && (b as { tool_use_id: string }).tool_use_id === id));
  });
}

test("a fork of the whole session copies every message and event under a new id, same cwd, model, title and settings", () => {
  recorded();

  const fork = store.forkSession("s_src", undefined, "s_fork", NOW + 1000);

  expect(fork).toEqual({
    session: expect.objectContaining({ id: "s_fork", cwd: "/work/p", model: "claude-test-1", title: "list the files", settings: '{"mode":"plan"}', created_at: NOW + 1000 }),
    messages: 4,
    requested: 4,
  });
  expect(store.getSession("s_fork")).toMatchObject({ title: "list the files", deleted_at: null, updated_at: NOW + 1000 });
  expect(plain(store.messages("s_fork"))).toEqual([question, call, results, answer]);
  const source = store.events("s_src");
  const copied = store.events("s_fork");
  expect(copied.map((e) => [e.seq, e.type])).toEqual(source.map((e) => [e.seq, e.type]));
  expect(copied[0]).toMatchObject({ type: "session", id: "s_fork", session_id: "s_fork" });
  expect(store.listSessions().map((r) => r.id).sort()).toEqual(["s_fork", "s_src"]);
  expect(plain(store.messages("s_src"))).toEqual([question, call, results, answer]);
});

test("a cut in the middle of a tool call is moved back so every tool_use has its result, and no later event is copied", () => {
  recorded();

  const fork = store.forkSession("s_src", 2, "s_fork", NOW);

  expect(fork).toMatchObject({ messages: 1, requested: 2 });
  const messages = store.messages("s_fork");
  expect(plain(messages)).toEqual([question]);
  expect(everyCallAnswered(messages)).toBe(true);
  expect(store.events("s_fork").map((e) => e.type)).toEqual(["session", "user"]);
  // Opening the fork finds nothing to repair: no streamed text or tool call after its last message.
  expect(repairMessages(messages, store.events("s_fork", messages.at(-1)!.seq))).toEqual([]);
});

test("a cut after the tool results keeps the call and its results, and the events up to them", () => {
  recorded();

  const fork = store.forkSession("s_src", 3, "s_fork", NOW);

  expect(fork).toMatchObject({ messages: 3, requested: 3 });
  const messages = store.messages("s_fork");
  expect(plain(messages)).toEqual([question, call, results]);
  expect(everyCallAnswered(messages)).toBe(true);
  expect(store.events("s_fork").map((e) => e.type)).toEqual(["session", "user", "text_delta", "assistant", "tool_start", "tool_end"]);
  expect(repairMessages(messages, store.events("s_fork", messages.at(-1)!.seq))).toEqual([]);
});

test("a session that crashed in a tool call forks without the unanswered call", () => {
  store.createSession({ id: "s_crash", cwd: "/p", model: "m" }, NOW);
  store.appendMessage("s_crash", question, store.appendEvent("s_crash", { type: "user", text: "list the files" }).seq);
  store.appendMessage("s_crash", call, store.appendEvent("s_crash", assistant(call, "tool_use", "m")).seq);
  store.appendEvent("s_crash", { type: "tool_start", id: "tu_1", name: "bash", input: { command: "ls" } });

  const fork = store.forkSession("s_crash", undefined, "s_fork", NOW);

  expect(fork).toMatchObject({ messages: 1, requested: 2 });
  expect(plain(store.messages("s_fork"))).toEqual([question]);
  expect(store.events("s_fork").map((e) => e.type)).toEqual(["user"]);
});

test("an --at beyond the end takes everything; an unknown session forks nothing", () => {
  recorded();
  expect(store.forkSession("s_src", 99, "s_fork", NOW)).toMatchObject({ messages: 4, requested: 4 });
  expect(store.forkSession("s_none", undefined, "s_other", NOW)).toBeUndefined();
  expect(store.getSession("s_other")).toBeUndefined();
});

test("validPrefix drops trailing assistant turns with tool calls and nothing else", () => {
  expect(validPrefix([question, call])).toEqual([question]);
  expect(validPrefix([question, call, results])).toEqual([question, call, results]);
  expect(validPrefix([question, answer])).toEqual([question, answer]);
  expect(validPrefix([])).toEqual([]);
});
