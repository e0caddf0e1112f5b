import { expect, test } from "bun:test";
import type { Message } from "../../../src/agent/types.ts";
import { compactedFrom, compactedView, NO_COMPACTION, PRUNED_MARKER } from "../../../src/session/compacted-view.ts";

const says = (role: Message["role"], text: string): Message => ({ role, content: [{ type: "text", text }] });
const call = (id: string): Message => ({ role: "assistant", content: [{ type: "tool_use", id, name: "read", input: {} }] });
const result = (id: string, content: string): Message => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] });
const full = [says("user", "do it"), call("t1"), result("t1", "one"), call("t2"), result("t2", "two"), says("assistant", "done")];

test("the view: the head, the kept messages, the pruned results replaced by the marker", () => {
  expect(compactedView(full, NO_COMPACTION)).toEqual(full);
  expect(compactedView(full, { head: null, firstKept: 0, pruned: [2] })[2]).toEqual(result("t1", PRUNED_MARKER));
  expect(compactedView(full, { head: "[summary] it began", firstKept: 3, pruned: [4] })).toEqual([
    says("user", "[summary] it began"),
    call("t2"),
    result("t2", PRUNED_MARKER),
    says("assistant", "done"),
  ]);
});

test("a compaction that does not fit the history (a fork cut before it, a tail starting on results) is ignored", () => {
  expect(compactedView(full.slice(0, 3), { head: "s", firstKept: 5, pruned: [] })).toEqual(full.slice(0, 3));
  expect(compactedView(full, { head: "s", firstKept: 2, pruned: [] })).toEqual(full);
});

test("built from the messages from any index up to the first kept one, the view is the same", () => {
  const states = [
    NO_COMPACTION,
    { head: null, firstKept: 0, pruned: [2] },
    { head: "[summary] it began", firstKept: 3, pruned: [4] },
    { head: "[summary] all of it", firstKept: 6, pruned: [] },
  ];
  for (const state of states) {
    for (let from = 0; from <= state.firstKept; from++) {
      expect(compactedFrom(full.slice(from), from, state)).toEqual(compactedView(full, state));
    }
  }
});

test("a compaction that does not fit: from index 0 the whole history, from later on undefined (the caller reads it all)", () => {
  for (const state of [{ head: "s", firstKept: 2, pruned: [] }, { head: null, firstKept: 3, pruned: [] }]) {
    expect(compactedFrom(full, 0, state)).toEqual(full);
    expect(compactedFrom(full.slice(2), 2, state)).toBeUndefined();
  }
  expect(compactedFrom([], 7, { head: "s", firstKept: 7, pruned: [] })).toEqual([says("user", "s")]);
  expect(compactedFrom(full.slice(3), 3, { head: "s", firstKept: 2, pruned: [] })).toBeUndefined();
});
