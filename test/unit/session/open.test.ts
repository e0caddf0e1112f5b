// Session.open reads only what the compacted view sends (the messages from the latest compaction's
// first kept one on), and the view is the one built from the whole history, crash repairs included.
import { beforeEach, expect, test } from "bun:test";
import type { EventOf } from "../../../src/agent/types.ts";
import { compactedView, stateOf } from "../../../src/session/compacted-view.ts";
import { Session } from "../../../src/session/session.ts";
import { crashWriter, type CrashWriter } from "../../support/crash-state.ts";
import { type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
let n = 0;
beforeEach(() => {
  kit = useShared();
});

const call = (id: string) => ({ type: "tool_use" as const, id, name: "bash", input: { command: `echo ${id}` } });
const results = (id: string) => ({ role: "user" as const, content: [{ type: "tool_result" as const, tool_use_id: id, content: `out ${id}` }] });

/** Eight messages: a request, three tool turns, an answer. */
function history(): CrashWriter {
  const w = crashWriter(kit.store, `s_open_${++n}`, kit.dir.path);
  w.user("do the thing");
  for (const id of ["t1", "t2", "t3"]) {
    w.assistant([call(id)]);
    w.results(results(id));
  }
  w.assistant([{ type: "text", text: "done" }]);
  return w;
}

function compaction(fields: Partial<EventOf<"compaction">>): EventOf<"compaction"> {
  return { type: "compaction", summary: "s", method: "summary", tokens_before: 100, tokens_after: 50, first_kept: 0, head: null, pruned: [], ...fields };
}

/** Opens the session, recording from which index it read the stored conversation. */
function open(w: CrashWriter): { session: Session; reads: number[] } {
  const reads: number[] = [];
  // Every read of the stored conversation goes through sizedConversation (conversation too).
  const sized = kit.store.sizedConversation.bind(kit.store);
  kit.store.sizedConversation = (id, from = 0) => (reads.push(from), sized(id, from));
  try {
    return { session: Session.open(w.row, kit.options()), reads };
  } finally {
    kit.store.sizedConversation = sized;
  }
}

function expectedView(w: CrashWriter) {
  const latest = kit.store.events(w.row.id).filter((e) => e.type === "compaction").at(-1);
  const full = kit.store.messages(w.row.id).map(({ role, content }) => ({ role, content }));
  return latest ? compactedView(full, stateOf(latest)) : full;
}

test("no compaction: the whole history, read once", () => {
  const w = history();
  const { session, reads } = open(w);
  expect(reads).toEqual([0]);
  expect(session.history()).toEqual(expectedView(w));
  expect(session.history()).toHaveLength(8);
});

test("a compaction: only the messages from its first kept one are read; the view is the same as from the whole history", () => {
  const w = history();
  w.event(compaction({ head: "[summary] began", first_kept: 3, pruned: [4] }));
  const { session, reads } = open(w);
  expect(reads).toEqual([3]);
  expect(session.history()).toEqual(expectedView(w));
  expect(session.history()[0]).toEqual({ role: "user", content: [{ type: "text", text: "[summary] began" }] });
  expect(session.history()).toHaveLength(6);
});

test("a compaction that does not fit the history (no head, or beyond its end) is ignored: everything is read", () => {
  const noHead = history();
  noHead.event(compaction({ first_kept: 3 }));
  const first = open(noHead);
  expect(first.reads).toEqual([3, 0]);
  expect(first.session.history()).toEqual(expectedView(noHead));
  expect(first.session.history()).toHaveLength(8);

  const beyond = history();
  beyond.event(compaction({ head: "[summary]", first_kept: 12 }));
  const second = open(beyond);
  expect(second.reads).toEqual([0]);
  expect(second.session.history()).toHaveLength(8);
});

test("a crash after a compaction: the repair is stored once and is part of the view", () => {
  const w = history();
  w.event(compaction({ head: "[summary] began", first_kept: 3 }));
  w.assistant([call("t4")]);
  const { session, reads } = open(w);
  expect(reads).toEqual([3]);
  expect(kit.store.messages(w.row.id).at(-1)).toMatchObject({ role: "user", status: "repaired" });
  expect(session.history()).toEqual(expectedView(w));
  expect(session.history()).toHaveLength(1 + 10 - 3);
  expect(open(w).session.history()).toEqual(session.history());
});
