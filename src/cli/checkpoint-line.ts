// One line saying what a turn changed (from its `checkpoint` event), for the terminal and `sessions show`.
import type { EventOf } from "../app/events.ts";

const SHOWN = 6;

export function checkpointLine(event: Omit<EventOf<"checkpoint">, "type">): string {
  const files = event.changed.map((c) => (c.from ? `${c.from} -> ${c.path}` : c.path));
  const list = files.length > SHOWN ? `${files.slice(0, SHOWN).join(", ")} and ${files.length - SHOWN} more` : files.join(", ");
  const head = files.length ? `changed ${files.length} file${files.length === 1 ? "" : "s"}: ${list}` : "changed no file";
  const extra = [
    event.uncovered.length ? `not covered (too big): ${event.uncovered.join(", ")}` : "",
    event.side_effects.length ? `not undoable: ${event.side_effects.join("; ")}` : "",
    event.incomplete ? `checkpoint incomplete: ${event.incomplete}` : "",
  ].filter(Boolean);
  return [`${head} (checkpoint ${event.n}; /undo or rein undo puts ${files.length === 1 ? "it" : "them"} back)`, ...extra].join(" · ");
}
