// A store that refuses a write mid-run (SQLite's query_only: writes fail as on a read-only or full
// disk) stops the run: it ends as an error saying the session could not be saved, and no further
// model turn starts, wherever the failed write was (a tool's streamed output, whose failure the tool
// runner would take for the tool's own; a tool's end), and also when the store takes writes again.
import { afterEach, beforeEach, expect, test } from "bun:test";
import * as v from "valibot";
import type { Tool } from "../../../src/sdk.ts";
import { type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});
afterEach(() => kit.store.db.exec("PRAGMA query_only = OFF"));

function breaking(streams: boolean): Tool {
  return {
    name: "breaker",
    description: "makes the store refuse writes",
    input: v.object({}),
    run: async (_input, ctx) => {
      kit.store.db.exec("PRAGMA query_only = ON");
      if (!streams) return "done";
      // only this one write fails: the store takes the next ones again
      ctx.output("a chunk the store cannot keep\n");
      kit.store.db.exec("PRAGMA query_only = OFF");
      return "done";
    },
  };
}

for (const [where, streams] of [["a tool's streamed output", true], ["the tool's end", false]] as const) {
  test(`a write that fails at ${where} ends the run as an error; no further turn is asked for`, async () => {
    const { session, log } = kit.create({ tools: [breaking(streams)] });
    kit.fake.script({ reply: [{ type: "tool_use", name: "breaker", input: {} }] }, { reply: [{ type: "text", text: "All fine." }] });

    const result = await session.prompt("break the disk");

    expect(result.status).toBe("error");
    expect(result.error).toStartWith("cannot save the session (attempt to write a readonly database); the run was stopped");
    expect(log.events.find((e) => e.seq === -1)?.type).toBe(streams ? "tool_output" : "tool_end");
    // the turn that was made is paid for: its usage is in the result however the run ended
    expect(result.usage.input_tokens).toBe(log.of("assistant")[0]!.usage.input_tokens);
    expect(result.usage.input_tokens).toBeGreaterThan(0);
    expect(kit.fake.requests).toHaveLength(1);
    expect(kit.fake.pending()).toBe(1);
    kit.fake.reset();
  });
}
