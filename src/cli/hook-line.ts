// The one line a front end shows for a hook that did something: blocked, asked, added context or
// failed. Hooks that ran and decided nothing stay quiet (their events are in stream-json).
import { basename } from "node:path";
import type { StampedEvent } from "../app/events.ts";

type HookEnd = Extract<StampedEvent, { type: "hook_end" }>;

export function hookLine(event: HookEnd): { text: string; tone: "warn" | "info" } | undefined {
  const who = `${event.event} hook (${basename(event.source)}: ${event.handler.replace(/^command: /, "")})`;
  const said = event.output ? `: ${event.output}` : "";
  switch (event.decision) {
    case "deny":
    case "block":
      return { text: `${who} blocked${said}`, tone: "warn" };
    case "ask":
      return { text: `${who} asks for confirmation${said}`, tone: "warn" };
    case "context":
      return { text: `${who} added context`, tone: "info" };
    case "error":
      return { text: `${who} failed: ${event.error ?? "unknown error"}`, tone: "warn" };
    default:
      return undefined;
  }
}
