// How the terminal places a subagent's calls: indented by their depth under the task call that
// started them, which is labelled by its agent and description.
import type { Running } from "./transcript.ts";

export function indentOf(depth: number): string {
  return "    ".repeat(depth);
}

/** "explore · find the handler", from a task call's input. */
export function taskLabel(call: Running | undefined): string | undefined {
  if (!call || typeof call.input !== "object" || call.input === null) return undefined;
  const { subagent_type, description } = call.input as Record<string, unknown>;
  const parts = [subagent_type, description].filter((part): part is string => typeof part === "string" && part !== "");
  return parts.length ? parts.join(" · ") : undefined;
}

/** The running calls, each followed by those of the subagent it started (a call whose parent is gone comes first). */
export function treeOrder(running: ReadonlyMap<string, Running>): Running[] {
  const below = new Map<string | undefined, string[]>();
  for (const [id, call] of running) {
    const key = call.parent && running.has(call.parent) ? call.parent : undefined;
    below.set(key, [...(below.get(key) ?? []), id]);
  }
  const walk = (key: string | undefined): Running[] => (below.get(key) ?? []).flatMap((id) => [running.get(id)!, ...walk(id)]);
  return walk(undefined);
}
