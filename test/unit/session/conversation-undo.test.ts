// The conversation half of undo on a real store: the user turns are prompts (not tool results),
// a cut takes out every message from a position on and returns them, a restore puts them back only
// where the conversation stopped, and the redo file keeps the undos, a damaged one read as none.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../../src/agent/types.ts";
import { cutConversation, readRedo, restoreConversation, userTurns, writeRedo } from "../../../src/session/conversation-undo.ts";
import { Store } from "../../../src/session/store.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let store: Store;
beforeEach(() => {
  dir = tempDir("rein-conv-undo-");
  store = Store.open(join(dir.path, "rein.db")).store;
  store.createSession({ id: "s_1", cwd: dir.path, model: "m", settings: null });
  const turn = (prompt: string, n: number): Message[] => [
    { role: "user", content: [{ type: "text", text: prompt }] },
    { role: "assistant", content: [{ type: "tool_use", id: `t${n}`, name: "bash", input: { command: "ls" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: `t${n}`, content: "a.txt" }] },
    { role: "assistant", content: [{ type: "text", text: `done ${n}` }] },
  ];
  let seq = 0;
  for (const m of [...turn("first", 1), ...turn("second", 2)]) store.appendMessage("s_1", m, ++seq);
});
afterEach(() => {
  store.close();
  dir.remove();
});

const texts = () => store.conversation("s_1").map((m) => JSON.stringify(m.content));

test("user turns are the prompts, not the tool results, oldest first", () => {
  expect(userTurns(store, "s_1").map((m) => [m.idx, (m.content[0] as { text: string }).text])).toEqual([[0, "first"], [4, "second"]]);
});

test("a cut from the second prompt takes out its four messages and returns them in order; the first turn stays", () => {
  const before = texts();
  const removed = cutConversation(store, "s_1", 4);
  expect(removed.map((m) => m.idx)).toEqual([4, 5, 6, 7]);
  expect(texts()).toEqual(before.slice(0, 4));
  expect(userTurns(store, "s_1")).toHaveLength(1);
});

test("a restore puts the cut messages back as they were, seq and all", () => {
  const before = store.messages("s_1");
  const removed = cutConversation(store, "s_1", 4);
  expect(restoreConversation(store, "s_1", removed)).toBe(true);
  expect(store.messages("s_1").map((m) => [m.idx, m.role, m.seq, JSON.stringify(m.content)])).toEqual(before.map((m) => [m.idx, m.role, m.seq, JSON.stringify(m.content)]));
});

test("a restore is refused once the conversation went on after the undo, and changes nothing", () => {
  const removed = cutConversation(store, "s_1", 4);
  store.appendMessage("s_1", { role: "user", content: [{ type: "text", text: "a new direction" }] }, 99);
  expect(restoreConversation(store, "s_1", removed)).toBe(false);
  expect(store.messages("s_1").map((m) => m.idx)).toEqual([0, 1, 2, 3, 4]);
  // nothing to restore is done at once
  expect(restoreConversation(store, "s_1", [])).toBe(true);
});

test("the redo file keeps the undos in order; none, or a damaged one, reads as no undos", () => {
  const checkpoints = join(dir.path, "checkpoints");
  expect(readRedo(checkpoints, "s_1")).toEqual([]);
  const removed = cutConversation(store, "s_1", 4);
  writeRedo(checkpoints, "s_1", [{ at: 1, code: true, messages: removed }]);
  const read = readRedo(checkpoints, "s_1");
  expect(read).toHaveLength(1);
  expect(read[0]!.code).toBe(true);
  expect(read[0]!.messages.map((m) => m.idx)).toEqual([4, 5, 6, 7]);
  // another session's redo is its own
  expect(readRedo(checkpoints, "s_2")).toEqual([]);
  mkdirSync(join(checkpoints, "redo"), { recursive: true });
  writeFileSync(join(checkpoints, "redo", "s_3.json"), "{ not json");
  expect(readRedo(checkpoints, "s_3")).toEqual([]);
  writeFileSync(join(checkpoints, "redo", "s_4.json"), '{"not": "a list"}');
  expect(readRedo(checkpoints, "s_4")).toEqual([]);
});
