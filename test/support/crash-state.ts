// Writes to a real store what a session had written when the process died, in the order and with
// the seq numbers Session.prompt uses: events first, each message stamped with the last event's seq.
import type { AgentEvent, ContentBlock, Message } from "../../src/agent/types.ts";
import type { SessionRow, Store } from "../../src/session/store.ts";
import { TEST_MODEL } from "./session-kit.ts";

export type CrashWriter = {
  row: SessionRow;
  event(event: AgentEvent): number;
  /** a user prompt: the `user` event, then its message */
  user(text: string): void;
  /** a finished model turn: the `assistant` event, then its message */
  assistant(content: ContentBlock[]): void;
  /** the tool results message the loop appends after a turn's calls */
  results(message: Message): void;
};

export function crashWriter(store: Store, id: string, cwd: string): CrashWriter {
  const row = store.createSession({ id, cwd, model: TEST_MODEL });
  const event = (e: AgentEvent) => store.appendEvent(id, e).seq;
  event({ type: "session", id, cwd, model: TEST_MODEL, version: "0.0.0-test" });
  return {
    row,
    event,
    user(text) {
      const seq = event({ type: "user", text });
      store.appendMessage(id, { role: "user", content: [{ type: "text", text }] }, seq);
    },
    assistant(content) {
      const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
      const stop_reason = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
      const seq = event({ type: "assistant", content, stop_reason, usage, cost_usd: null, model: TEST_MODEL });
      store.appendMessage(id, { role: "assistant", content }, seq);
    },
    results(message) {
      store.appendMessage(id, message, store.lastSeq(id));
    },
  };
}
