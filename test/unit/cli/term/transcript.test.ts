import { describe, expect, test } from "bun:test";
import chalk from "chalk";
import type { StampedEvent } from "../../../../src/session/events.ts";
import { Screen } from "../../../../src/cli/term/screen.ts";
import { Transcript } from "../../../../src/cli/term/transcript.ts";

chalk.level = 0;

/** A transcript drawn on a plain (TERM=dumb) screen, which itself writes no escape sequence: every write is kept. */
function setup() {
  const writes: string[] = [];
  const screen = new Screen({ write: (text) => void writes.push(text), columns: () => 80, rows: () => 24 }, false);
  const transcript: Transcript = new Transcript(screen, {
    cwd: "/tmp",
    color: false,
    changed: () => screen.setLive({ rows: transcript.liveRows(screen.width), cursorRow: 0, cursorCol: 0 }),
  });
  const delta = (text: string) => transcript.handle({ type: "text_delta", text, session_id: "ses_test", seq: 1 } as StampedEvent);
  return { writes, transcript, delta };
}

describe("the streamed unfinished line", () => {
  test("is drawn live without a C1 CSI (U+009B), an escape or any other control character", () => {
    const { writes, transcript, delta } = setup();
    delta("safe \x1b[2J");
    delta("then \x9b2J and \x9d0;title\x07 and \x7f end");
    const live = transcript.liveRows(80);
    expect(live).toEqual(["safe [2Jthen 2J and 0;title and  end"]);
    const output = writes.join("");
    expect(output).toContain("safe [2Jthen 2J");
    expect(output).not.toMatch(/[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]/);
    transcript.stop();
  });
});

describe("inputOf", () => {
  test("a running call's input, for the permission dialog; nothing once it ended", () => {
    const { transcript } = setup();
    const stamp = { session_id: "ses_test", seq: 1 };
    transcript.handle({ type: "tool_start", id: "toolu_1", name: "bash", input: { command: "ls" }, ...stamp } as StampedEvent);
    expect(transcript.inputOf("toolu_1")).toEqual({ command: "ls" });
    expect(transcript.inputOf("toolu_2")).toBeUndefined();
    transcript.handle({ type: "tool_end", id: "toolu_1", name: "bash", output: "", is_error: false, ...stamp } as StampedEvent);
    expect(transcript.inputOf("toolu_1")).toBeUndefined();
    transcript.stop();
  });
});
