// stdin in print mode: piped context, "-" as the prompt, and never hanging on a silent pipe.
import { expect, test } from "bun:test";
import { lastUserText, text, world } from "./harness.ts";

test.concurrent("piped stdin is added to the prompt as context", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("looks fine")] });

  const r = await w.run(["-p", "review this"], { stdin: "DIFF CONTENT\n+added line\n" });

  expect(r.code).toBe(0);
  const sent = lastUserText(w.fake.requests[0]);
  expect(sent).toContain("review this");
  expect(sent).toContain("DIFF CONTENT\n+added line");
  expect(sent.indexOf("review this")).toBeLessThan(sent.indexOf("DIFF CONTENT"));
});

test.concurrent("-p - reads the prompt from stdin", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("ok")] });

  const r = await w.run(["-p", "-"], { stdin: "the prompt from stdin\n" });

  expect(r.code).toBe(0);
  expect(lastUserText(w.fake.requests[0]).trim()).toBe("the prompt from stdin");
});

test.concurrent("a prompt with a stdin pipe that stays open and silent does not hang", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("went on without stdin")] });

  const r = await w.run(["-p", "just this"], { stdin: "pipe-open", env: { REIN_STDIN_TIMEOUT_MS: "200" }, timeoutMs: 10_000 });

  expect(r.code).toBe(0);
  expect(r.stdout).toBe("went on without stdin\n");
  expect(r.stderr).toContain("stdin");
  expect(lastUserText(w.fake.requests[0])).toBe("just this");
});

test.concurrent("stdin from /dev/null does not hang", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("fine")] });

  const r = await w.run(["-p", "just this"], { stdin: Bun.file("/dev/null"), timeoutMs: 10_000 });

  expect(r).toMatchObject({ code: 0, stdout: "fine\n" });
  expect(lastUserText(w.fake.requests[0])).toBe("just this");
});

test.concurrent("no prompt and an empty stdin: exit 2", async () => {
  await using w = await world();
  const r = await w.run(["-p"], { stdin: "" });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("no prompt");
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("-p - with an empty stdin: exit 2", async () => {
  await using w = await world();
  const r = await w.run(["-p", "-"], { stdin: Bun.file("/dev/null") });
  expect(r.code).toBe(2);
  expect(w.fake.requests).toHaveLength(0);
});
