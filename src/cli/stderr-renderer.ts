// Progress for print mode's text and json formats, on stderr: tool calls, calls a rule denied,
// retries, errors.
import type { StampedEvent } from "../app/events.ts";
import { hookLine } from "./hook-line.ts";
import { err } from "../app/output.ts";
import { deniedReason, isPlumbing, progressLine } from "./tool-line.ts";

export function stderrRenderer(warn: (message: string) => void, cwd: string): (event: StampedEvent) => void {
  return (event) => {
    switch (event.type) {
      case "tool_start":
        if (!isPlumbing(event.name)) err(`${progressLine(event.name, event.input, cwd)}\n`);
        return;
      case "tool_end": {
        // As a refused ask does: a call a rule denied says so, with the rule.
        const denied = deniedReason(event);
        if (denied) warn(`denied ${event.name}: ${denied}`);
        return;
      }
      case "retry":
        warn(`retrying in ${(event.delay_ms / 1000).toFixed(1)}s (attempt ${event.attempt} failed: ${event.reason})`);
        return;
      case "hook_end": {
        const line = hookLine(event);
        if (line) warn(line.text);
        return;
      }
      case "compaction":
        warn(`context compacted (${event.method}): ~${event.tokens_before} -> ~${event.tokens_after} tokens`);
        return;
      default:
        return;
    }
  };
}
