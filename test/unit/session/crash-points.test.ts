// SIGKILL at 50 points of a 50-turn session (seeded, reproducible): every time, the database opens,
// no event the child had shown is lost, and the session continues with a valid conversation.
import { beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import type { StampedEvent } from "../../../src/agent/types.ts";
import { Session } from "../../../src/session/session.ts";
import { conversationProblems, sentMessages, type Kit, useKit } from "../../support/session-kit.ts";
import { quick, stall } from "../../support/crash-child.ts";
import { runChildUntil } from "../../support/crash-run.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const TURNS = 50;
const POINTS = 50;

function script(): void {
  for (let i = 0; i < TURNS; i++) {
    kit.fake.script({ reply: [{ type: "text", text: `step ${i} of the work` }, { type: "tool_use", name: "quick", input: { n: i } }], chunkSize: 4 });
  }
  kit.fake.script({ reply: [{ type: "text", text: "all done" }] });
}

/** A small seeded generator, so a failing point can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

test(`SIGKILL at ${POINTS} points of a ${TURNS}-turn session never loses a shown event and always continues`, async () => {
  const next = random(20261129);
  // A full run shows about 8 events a turn (deltas, assistant, tool start and end): kill points spread over it.
  const points = Array.from({ length: POINTS }, () => 2 + Math.floor(next() * TURNS * 8));
  const problems: string[] = [];
  for (const point of points) {
    kit.fake.reset();
    script();
    const { shown } = await runChildUntil(kit, "do the work", (events) => events.length >= point);
    const id = shown[0]?.session_id;
    if (!id) {
      problems.push(`point ${point}: nothing was shown`);
      continue;
    }
    const stored = new Map(kit.store.events(id).map((e) => [e.seq, e.type]));
    const lost = shown.filter((e) => stored.get(e.seq) !== e.type);
    if (lost.length) problems.push(`point ${point}: lost ${lost.map((e) => `${e.seq}:${e.type}`).join(", ")}`);

    kit.fake.reset();
    kit.fake.script({ reply: [{ type: "text", text: "resumed" }] });
    const session = Session.open(kit.store.getSession(id)!, kit.options({ tools: [quick, stall] }));
    const result = await session.prompt("go on");
    const sent = conversationProblems(sentMessages(kit.fake.requests.at(-1)));
    if (result.status !== "success" || sent.length) problems.push(`point ${point}: ${result.status} ${sent.join("; ")}`);
  }
  expect(problems).toEqual([]);
}, 120_000);
