// A tool turn's events and messages are stored with two or three commits, not one a row, and never
// shown before they are committed: a second connection to the same file (another process's view)
// finds every event a listener is shown, and counts the commits (PRAGMA data_version moves once per
// commit of another connection).
import { Database } from "bun:sqlite";
import { beforeEach, expect, test } from "bun:test";
import * as v from "valibot";
import { defineTool } from "../../../src/sdk.ts";
import { type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const TURNS = 10;
const echo = defineTool({
  name: "echo",
  description: "Prints its input after a moment, as a command would",
  input: v.object({ n: v.number() }),
  run: async ({ n }, ctx) => {
    await Bun.sleep(5);
    ctx.output(`${n}\n`);
    await Bun.sleep(1);
    return `${n}`;
  },
});

test(`a session of ${TURNS} tool turns commits two or three times a turn, not once a row, and a listener sees only committed events`, async () => {
  for (let n = 0; n < TURNS; n++) kit.fake.script({ reply: [{ type: "text", text: `call ${n}` }, { type: "tool_use", name: "echo", input: { n } }], chunkSize: 3 });
  kit.fake.script({ reply: [{ type: "text", text: "done" }] });
  const { session } = kit.create({ tools: [echo] });
  const other = new Database(kit.store.path, { readonly: true });
  const version = () => (other.query("PRAGMA data_version").get() as { data_version: number }).data_version;
  const unseen: string[] = [];
  let shown = 0;
  session.subscribe((event) => {
    shown++;
    const row = other.query("SELECT type FROM events WHERE session_id = ? AND seq = ?").get(event.session_id, event.seq) as { type: string } | null;
    if (row?.type !== event.type) unseen.push(`${event.seq}:${event.type}`);
  });

  const before = version();
  const result = await session.prompt("run the echoes");
  const commits = version() - before;
  other.close();

  expect(result.status).toBe("success");
  expect(unseen).toEqual([]);
  const stored = kit.store.events(session.id);
  // Each turn: its text in deltas, the reply, the call's start, output and end, and two messages.
  expect(stored.filter((e) => e.type === "tool_output")).toHaveLength(TURNS);
  expect(shown).toBe(stored.length);
  expect(kit.store.messages(session.id)).toHaveLength(2 + 2 * TURNS);
  // Unbatched this was one commit a row: over 8 a turn here.
  expect(commits).toBeLessThanOrEqual(3 * TURNS + 6);
});
