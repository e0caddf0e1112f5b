// What the history tool reads and searches: the whole stored conversation by position, each
// message as plain text with tool calls and results marked, its
// own calls left out of searches, and the most recent matches when there are many.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import type { Message } from "../../../src/agent/types.ts";
import { storedHistory, toolResultText } from "../../../src/session/stored-history.ts";
import { Store } from "../../../src/session/store.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let store: Store;
beforeEach(() => {
  dir = tempDir("rein-history-");
  store = Store.open(join(dir.path, "rein.db")).store;
  store.createSession({ id: "s_1", cwd: dir.path, model: "m", settings: null });
});
afterEach(() => {
  store.close();
  dir.remove();
});

let seq = 0;
const add = (...messages: Message[]) => {
  for (const m of messages) store.appendMessage("s_1", m, ++seq);
};
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const said = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });

test("an empty session has nothing; positions count from 0 in the order stored", () => {
  const history = storedHistory(store, "s_1");
  expect(history.count()).toBe(0);
  expect(history.read(0, 10)).toEqual([]);
  add(user("first"), said("second"), user("third"));
  expect(history.count()).toBe(3);
  expect(history.read(0, 2)).toEqual([
    { index: 0, role: "user", text: "first" },
    { index: 1, role: "assistant", text: "second" },
    { index: 2, role: "user", text: "third" },
  ]);
});

test("read takes an inclusive range, clipped to what there is; a range before the start starts at 0", () => {
  add(user("a"), said("b"), user("c"), said("d"));
  const history = storedHistory(store, "s_1");
  expect(history.read(1, 2).map((e) => [e.index, e.text])).toEqual([[1, "b"], [2, "c"]]);
  expect(history.read(3, 99).map((e) => e.index)).toEqual([3]);
  expect(history.read(-5, 0).map((e) => e.index)).toEqual([0]);
  expect(history.read(2, 1)).toEqual([]);
  expect(history.read(10, 20)).toEqual([]);
});

test("tool calls and results read as marked text; an error result says so; an image is [image]", () => {
  add(
    user("look at the logo"),
    { role: "assistant", content: [{ type: "text", text: "Reading it." }, { type: "tool_use", id: "t1", name: "read", input: { path: "logo.png" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "a PNG" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } }] }] },
    { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "bash", input: { command: "false" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: "exit 1", is_error: true }] },
  );
  const texts = storedHistory(store, "s_1").read(0, 10).map((e) => e.text);
  expect(texts).toEqual([
    "look at the logo",
    'Reading it.\n[tool call read {"path":"logo.png"}]',
    "[tool result] a PNG\n[image]",
    '[tool call bash {"command":"false"}]',
    "[tool result (error)] exit 1",
  ]);
});

test("search is case-blind, finds text in calls and results, and gives the most recent `limit` matches", () => {
  add(user("Deploy to staging"), said("deploying"), user("deploy again"), said("Done: DEPLOY finished"), user("thanks"));
  const history = storedHistory(store, "s_1");
  expect(history.search("deploy", 10).map((e) => e.index)).toEqual([0, 1, 2, 3]);
  expect(history.search("DEPLOY", 2).map((e) => e.index)).toEqual([2, 3]);
  expect(history.search("nowhere", 5)).toEqual([]);
});

test("the history tool's own calls are left out, so a search does not find itself", () => {
  add(
    user("what did we say about tokens?"),
    { role: "assistant", content: [{ type: "tool_use", id: "h1", name: "history", input: { query: "tokens" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "h1", content: "0: what did we say about tokens?" }] },
  );
  const found = storedHistory(store, "s_1").search("tokens", 10);
  // the question and the result quoting it match; the call carrying the query does not
  expect(found.map((e) => e.index)).toEqual([0, 2]);
  expect(storedHistory(store, "s_1").read(1, 1)).toEqual([{ index: 1, role: "assistant", text: "" }]);
});

test("another session's messages are not this session's history", () => {
  store.createSession({ id: "s_2", cwd: dir.path, model: "m", settings: null });
  store.appendMessage("s_2", user("elsewhere"), 1);
  add(user("here"));
  expect(storedHistory(store, "s_1").search("elsewhere", 5)).toEqual([]);
  expect(storedHistory(store, "s_2").count()).toBe(1);
});

test("toolResultText: a string as it is, parts joined by lines, non-text parts by their type", () => {
  expect(toolResultText("plain")).toBe("plain");
  expect(toolResultText([{ type: "text", text: "one" }, { type: "text", text: "two" }])).toBe("one\ntwo");
  expect(toolResultText([{ type: "image", source: { type: "base64", media_type: "image/png", data: "" } }] as never)).toBe("[image]");
});
