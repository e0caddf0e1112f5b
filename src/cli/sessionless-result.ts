// The closing `result` that json and stream-json promise, for a run that ends before it has a
// session (a bad flag, the config, the key, the database, a signal while starting): no session_id, seq 0.
import type { ResultStatus } from "../app/events.ts";

export function sessionlessResult(status: ResultStatus, error: string): string {
  const usage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  return `${JSON.stringify({ type: "result", session_id: null, seq: 0, status, text: "", usage, cost_usd: 0, turns: 0, duration_ms: 0, error })}\n`;
}
