// The one-line summaries the terminal and `rein sessions` print for events: what a turn changed (its
// checkpoint), what a hook did, and a session's row with its times and durations.
import { describe, expect, test } from "bun:test";
import type { StampedEvent } from "../../../src/app/events.ts";
import { checkpointLine } from "../../../src/cli/checkpoint-line.ts";
import { hookLine } from "../../../src/cli/hook-line.ts";
import { duration, sessionLine, stamp } from "../../../src/cli/sessions-format.ts";
import type { SessionRow } from "../../../src/session/store.ts";

describe("checkpointLine", () => {
  const checkpoint = (changed: { status: string; path: string; from?: string }[], extra: Partial<{ uncovered: string[]; side_effects: string[]; incomplete: string }> = {}) =>
    checkpointLine({ n: 4, changed, uncovered: [], side_effects: [], ...extra });

  test("one file is 'it', several are 'them', a rename shows where it came from", () => {
    expect(checkpoint([{ status: "M", path: "src/a.ts" }])).toBe("changed 1 file: src/a.ts (checkpoint 4; /undo or rein undo puts it back)");
    expect(checkpoint([{ status: "A", path: "b.ts" }, { status: "R", path: "new.ts", from: "old.ts" }])).toBe("changed 2 files: b.ts, old.ts -> new.ts (checkpoint 4; /undo or rein undo puts them back)");
  });

  test("more than six files: the first six and how many more", () => {
    const files = Array.from({ length: 9 }, (_, i) => ({ status: "M", path: `f${i}` }));
    expect(checkpoint(files)).toBe("changed 9 files: f0, f1, f2, f3, f4, f5 and 3 more (checkpoint 4; /undo or rein undo puts them back)");
  });

  test("what an undo cannot restore is said after the head, each part once", () => {
    expect(checkpoint([], { uncovered: ["big.bin", "huge.iso"], side_effects: ["git push", "curl -X POST"], incomplete: "the disk filled" })).toBe(
      "changed no file (checkpoint 4; /undo or rein undo puts them back) · not covered (too big): big.bin, huge.iso · not undoable: git push; curl -X POST · checkpoint incomplete: the disk filled",
    );
  });
});

describe("hookLine", () => {
  const end = (decision: string, extra: Partial<Extract<StampedEvent, { type: "hook_end" }>> = {}) =>
    hookLine({ type: "hook_end", session_id: "s", seq: 1, id: "h1", event: "PreToolUse", source: "/home/u/.claude/settings.json", handler: "command: ./check.sh", decision, duration_ms: 5, output: "", ...extra } as Extract<StampedEvent, { type: "hook_end" }>);

  test("a block or deny warns with what the hook said; the source is the file's name, the handler without its kind", () => {
    expect(end("deny", { output: "no pushing" })).toEqual({ text: "PreToolUse hook (settings.json: ./check.sh) blocked: no pushing", tone: "warn" });
    expect(end("block")).toEqual({ text: "PreToolUse hook (settings.json: ./check.sh) blocked", tone: "warn" });
  });

  test("an ask warns, added context informs, a failure says why", () => {
    expect(end("ask", { output: "sure?" })).toEqual({ text: "PreToolUse hook (settings.json: ./check.sh) asks for confirmation: sure?", tone: "warn" });
    expect(end("context", { output: "ignored here" })).toEqual({ text: "PreToolUse hook (settings.json: ./check.sh) added context", tone: "info" });
    expect(end("error", { error: "it timed out after 10 s" })).toEqual({ text: "PreToolUse hook (settings.json: ./check.sh) failed: it timed out after 10 s", tone: "warn" });
    expect(end("error")?.text).toEndWith("failed: unknown error");
  });

  test("a hook that decided nothing, or allowed, stays quiet", () => {
    expect(end("none")).toBeUndefined();
    expect(end("allow")).toBeUndefined();
  });

  test("a prompt or agent handler keeps its kind", () => {
    expect(end("block", { handler: "prompt: is this safe?" })?.text).toBe("PreToolUse hook (settings.json: prompt: is this safe?) blocked");
  });
});

describe("the sessions listing", () => {
  const row = (over: Partial<SessionRow> = {}): SessionRow =>
    ({ id: "s_abc", title: "Fix the tests", cwd: "/work/p", created_at: Date.UTC(2026, 0, 2, 3, 4, 5), updated_at: Date.UTC(2026, 10, 30, 23, 59, 59), deleted_at: null, ...over }) as SessionRow;

  test("times are UTC to the minute", () => {
    expect(stamp(Date.UTC(2026, 11, 2, 4, 5, 59, 999))).toBe("2026-12-02 04:05");
  });

  test("a row is its id, last update, title and folder; untitled says so", () => {
    expect(sessionLine(row())).toBe("s_abc  2026-11-30 23:59  Fix the tests  /work/p");
    expect(sessionLine(row({ title: null }))).toBe("s_abc  2026-11-30 23:59  (untitled)  /work/p");
  });

  test("with a label, a trashed session shows when it was trashed", () => {
    expect(sessionLine(row({ deleted_at: Date.UTC(2026, 11, 1, 8, 0) }), "trashed")).toBe("s_abc  trashed 2026-12-01 08:00  Fix the tests  /work/p");
    expect(sessionLine(row(), "updated")).toBe("s_abc  updated 2026-11-30 23:59  Fix the tests  /work/p");
  });

  test("a duration is written in the largest unit that divides it, as --older-than takes it", () => {
    expect(duration(30 * 86_400_000)).toBe("30d");
    expect(duration(14 * 86_400_000)).toBe("2w");
    expect(duration(90 * 60_000)).toBe("90m");
    expect(duration(36 * 3_600_000)).toBe("36h");
    expect(duration(45_000)).toBe("45s");
    expect(duration(0)).toBe("0d");
  });
});
