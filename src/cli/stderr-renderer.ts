// Progress for print mode's text and json formats, on stderr: tool calls, retries, errors.
import type { StampedEvent } from "../session/events.ts";
import { err } from "./output.ts";

export function stderrRenderer(warn: (message: string) => void): (event: StampedEvent) => void {
  return (event) => {
    switch (event.type) {
      case "tool_start":
        err(`› ${event.name} ${summary(event.input)}\n`);
        return;
      case "retry":
        warn(`retrying in ${(event.delay_ms / 1000).toFixed(1)}s (attempt ${event.attempt} failed: ${event.reason})`);
        return;
      case "compaction":
        warn(`context compacted (${event.method}): ~${event.tokens_before} -> ~${event.tokens_after} tokens`);
        return;
      default:
        return;
    }
  };
}

function summary(input: unknown): string {
  const first = input && typeof input === "object" ? Object.values(input)[0] : input;
  const text = typeof first === "string" ? first : JSON.stringify(first ?? "");
  const line = text.split("\n")[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}
