// A session's hooks before one fires. Which points have a hook is known from the entries (the table
// read at start), so a point no hook listens at answers at once, as the engine would with nothing
// to run; the engine, its runners and the transcript writers (hook-runtime.ts) load at the first
// point that has one. The transcripts are then written from the session's events so far, read back
// from the store, so a hook still reads everything up to the call it fires for.
import type { CallHandler } from "../agent/call-engine.ts";
import type { RunChain, StampedEvent } from "../agent/types.ts";
import type { HookPoints } from "../hooks/points.ts";
import { isAsync, type HookEntry } from "../hooks/sources.ts";
import type { SessionHooks, SessionHookSettings } from "./session-hooks.ts";

/** `start` makes the real hooks; `history(afterSeq)` gives the session's stored events after a seq. */
export function lazySessionHooks(settings: SessionHookSettings, start: () => SessionHooks, history: (afterSeq: number) => StampedEvent[]): SessionHooks {
  // loops, not filter and map: a start's plugins bring a hook each, and those calls add up past JavaScriptCore's optimizing threshold
  const entries: HookEntry[] = [];
  const events = new Set<HookEntry["event"]>();
  for (const entry of settings.entries) {
    if (!entry.active) continue;
    entries.push(entry);
    events.add(entry.event);
  }
  const has = (event: HookEntry["event"]) => events.has(event);
  const sub = settings.subagent;
  let real: SessionHooks | undefined;
  /** the events this process recorded before the hooks loaded: from first to last */
  let first: number | undefined;
  let last = 0;
  const load = (): HookPoints => {
    if (!real) {
      real = start();
      if (first !== undefined) for (const event of history(first - 1)) if (event.seq <= last) real.record(event);
    }
    return real.points;
  };
  // The same handlers, in the same order, as hookPoints makes for these entries.
  const stopEvent = sub ? "SubagentStop" : "Stop";
  const kinds = [entries.some(isAsync), has("PostToolUseFailure"), has("PostToolUse"), has("PreToolUse")];
  const callHandlers: CallHandler[] = [];
  for (const on of kinds) {
    if (!on) continue;
    const at = callHandlers.length;
    callHandlers.push((c, next) => load().callHandlers[at]!(c, next));
  }
  const chain: RunChain = {
    halted: () => real?.points.chain.halted?.(),
    haltSucceeds: () => real?.points.chain.haltSucceeds?.() === true,
    ...(has(stopEvent) ? { stopChecks: [(stop, signal) => load().chain.stopChecks![0]!(stop, signal)] } : {}),
  };
  const points: HookPoints = {
    chain,
    callHandlers,
    newRun: () => real?.points.newRun(),
    claudeStop: () => real?.points.claudeStop(),
    takeLate: () => real?.points.takeLate() ?? [],
    addLate: (note) => load().addLate(note),
    beforePrompt: async (prompt, signal) => (sub || !has("UserPromptSubmit") ? {} : load().beforePrompt(prompt, signal)),
    beforeExpansion: async (expansion, signal) => (sub || !has("UserPromptExpansion") ? {} : load().beforeExpansion(expansion, signal)),
    sessionStart: async (source, signal) => (has(sub ? "SubagentStart" : "SessionStart") ? load().sessionStart(source, signal) : {}),
    sessionEnd: async (reason, signal) => (sub || !has("SessionEnd") ? undefined : load().sessionEnd(reason, signal)),
    beforeCompact: async (trigger, instructions, signal) => (has("PreCompact") ? load().beforeCompact(trigger, instructions, signal) : {}),
    afterCompact: async (trigger, summary, signal) => (has("PostCompact") ? load().afterCompact(trigger, summary, signal) : undefined),
    notify: async (type, message) => (has("Notification") ? load().notify(type, message) : undefined),
    permissionRequest: async (ask, signal) => (has("PermissionRequest") ? load().permissionRequest(ask, signal) : undefined),
    team: async (event, fields, signal) => (has(event) ? load().team(event, fields, signal) : undefined),
  };
  return {
    points,
    record(event) {
      if (real) return real.record(event);
      first ??= event.seq;
      last = event.seq;
    },
    rest: () => real?.rest(),
  };
}
