// `rein -c -p --compact [FOCUS]` through the compiled binary: compacts the stored session as a run of
// its own (session, compaction, result), prints one line (text) or the events (json, stream-json),
// and the next prompt sends the summary. Misuse is a usage error.
import { expect, test } from "bun:test";
import { lastUserText, messagesOf, text, world, type World } from "./harness.ts";

const summary = { reply: [text("The user asked about the parser and got an answer.")], usage: { input_tokens: 400, output_tokens: 40 } };

/** Pasted context that makes a prompt worth compacting (about 1,000 tokens). */
const pasted = `\n${"the parser reads tokens. ".repeat(160)}`;

/** A stored session of two prompts (four messages); returns its id. */
async function twoPrompts(w: World): Promise<string> {
  w.fake.script({ reply: [text("First answer.")] }, { reply: [text("Second answer.")] });
  expect((await w.run(["-p", `how does the parser work?${pasted}`])).code).toBe(0);
  expect((await w.run(["-c", "-p", `and the lexer?${pasted}`])).code).toBe(0);
  const [listed] = JSON.parse((await w.run(["sessions", "list", "--json"])).stdout) as { id: string }[];
  return listed!.id;
}

async function storedEvents(w: World, id: string): Promise<{ type: string; seq: number; [key: string]: any }[]> {
  return JSON.parse((await w.run(["sessions", "export", id, "--format", "json"])).stdout).events;
}

test.concurrent("text: one line on stdout, the summary call asked with the focus, and the next prompt sends the summary", async () => {
  await using w = await world();
  const id = await twoPrompts(w);
  w.fake.script(summary);

  const r = await w.run(["-c", "-p", "--compact", "the parser"]);

  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^compacted: ~\d+ -> ~\d+ tokens \(summarised\)\n$/);
  expect(r.stderr).toBe("");
  const call = w.fake.requests.at(-1)!.body;
  expect(call.tools).toEqual([]);
  expect(call.messages[0].content[0].text).toContain("Keep above all what concerns: the parser");
  expect(call.messages[0].content[0].text).toContain("User: how does the parser work?");

  const events = await storedEvents(w, id);
  const run = events.slice(events.findLastIndex((e) => e.type === "session"));
  expect(run.map((e) => e.type)).toEqual(["session", "compaction", "result"]);
  expect(run[1]).toMatchObject({ method: "summary", usage: { input_tokens: 400, output_tokens: 40 } });
  expect(run[2]).toMatchObject({ status: "success", turns: 0, text: r.stdout.trim(), usage: { input_tokens: 400, output_tokens: 40 } });

  w.fake.script({ reply: [text("Third answer.")] });
  expect((await w.run(["-c", "-p", "and the printer?"])).code).toBe(0);
  const sent = messagesOf(w.fake.requests.at(-1));
  expect(JSON.stringify(sent[0])).toContain("[summary of the earlier conversation]\\nThe user asked about the parser and got an answer.");
  expect(lastUserText(w.fake.requests.at(-1))).toBe("and the printer?");
});

test.concurrent("stream-json: session, compaction, result (turns 0, the summary call's usage and cost); json: that result alone", async () => {
  await using w = await world();
  await twoPrompts(w);
  w.fake.script(summary);

  const r = await w.runStream(["-c", "-p", "--compact"]);

  expect(r.code).toBe(0);
  expect(r.events.map((e) => e.type)).toEqual(["session", "compaction", "result"]);
  for (let i = 1; i < r.events.length; i++) expect(r.events[i]!.seq).toBeGreaterThan(r.events[i - 1]!.seq);
  const [, compaction, result] = r.events;
  expect(compaction).toMatchObject({ method: "summary", first_kept: expect.any(Number) });
  // claude-sonnet-5-5: $2 in, $10 out per million tokens
  expect(compaction!.cost_usd).toBe(0.0012);
  expect(result).toMatchObject({ status: "success", turns: 0, cost_usd: 0.0012, usage: { input_tokens: 400, output_tokens: 40 } });
  expect(result!.text).toStartWith("compacted: ~");

  // the compacted session is small now: one more long prompt makes it worth compacting again
  w.fake.script({ reply: [text("Third answer.")] }, summary);
  expect((await w.run(["-c", "-p", `and the printer?${pasted}${pasted}`])).code).toBe(0);
  const json = await w.run(["-c", "-p", "--compact", "--output-format", "json"]);
  expect(json.code).toBe(0);
  const lines = json.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({ type: "result", status: "success", turns: 0, cost_usd: 0.0012 });
});

test.concurrent("sessions show counts the compaction's summary call once", async () => {
  await using w = await world();
  const id = await twoPrompts(w);
  w.fake.script(summary);
  expect((await w.run(["-r", id, "-p", "--compact"])).code).toBe(0);

  const shown = await w.run(["sessions", "show", id]);
  const events = await storedEvents(w, id);
  const input = events.filter((e) => e.type === "result").reduce((n, e) => n + e.usage.input_tokens, 0);
  expect(shown.stdout).toContain(`3 runs · tokens: in ${input} `);
  expect(input).toBeGreaterThan(400);
});

const nothing = /^nothing worth compacting: the conversation \(~\d+ tokens with the system prompt and tools\) would not get smaller\n$/;

test.concurrent("nothing worth compacting: the line says so, exit 0, no model call, the conversation unchanged", async () => {
  await using w = await world();
  w.fake.script({ error: 401 });
  expect((await w.run(["-p", "hello"])).code).toBe(1); // one message stored, no answer
  const before = w.fake.requests.length;

  const r = await w.run(["-c", "-p", "--compact"]);

  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(nothing);
  expect(w.fake.requests).toHaveLength(before);
  const stream = await w.runStream(["-c", "-p", "--compact"]);
  expect(stream.events.map((e) => e.type)).toEqual(["session", "result"]);
  expect(stream.events[1]).toMatchObject({ status: "success", turns: 0, text: expect.stringContaining("nothing worth compacting") });
});

test.concurrent("a small session is not made bigger: a summary as long as the conversation is not kept", async () => {
  await using w = await world();
  const id = await twoPrompts(w);
  w.fake.script({ reply: [text("a summary longer than what it summarises ".repeat(200))], usage: { input_tokens: 900, output_tokens: 2000 } });

  const r = await w.runStream(["-c", "-p", "--compact"]);

  expect(r.code).toBe(0);
  expect(r.events.map((e) => e.type)).toEqual(["session", "result"]);
  expect(`${r.events[1]!.text}\n`).toMatch(nothing);
  // the summary call was made and its cost is the run's
  expect(r.events[1]).toMatchObject({ usage: { input_tokens: 900, output_tokens: 2000 } });
  const transcript: string = w.fake.requests.at(-1)!.body.messages[0].content[0].text;
  for (const part of ["User: how does the parser work?", "Assistant: First answer.", "User: and the lexer?", "Assistant: Second answer."]) {
    expect(transcript).toContain(part);
  }
  w.fake.script({ reply: [text("Third answer.")] });
  expect((await w.run(["-r", id, "-p", "and the printer?"])).code).toBe(0);
  expect(messagesOf(w.fake.requests.at(-1))).toHaveLength(5);
});

test.concurrent("misuse is a usage error with a hint (exit 2); json still ends with a result", async () => {
  await using w = await world();
  const noPrint = await w.run(["-c", "--compact"]);
  expect(noPrint.code).toBe(2);
  expect(noPrint.stderr).toBe("rein: --compact works in print mode: rein -c -p --compact [FOCUS] (in the terminal: /compact [FOCUS])\n");

  const noSession = await w.run(["-p", "--compact", "the parser"]);
  expect(noSession.code).toBe(2);
  expect(noSession.stderr).toContain("--compact needs a session to compact: rein -c -p --compact [FOCUS]");

  const none = await w.run(["-c", "-p", "--compact", "--output-format", "json"]);
  expect(none.code).toBe(2);
  expect(none.stderr).toContain("no session to continue");
  expect(JSON.parse(none.stdout)).toMatchObject({ type: "result", status: "error" });
  expect(w.fake.requests).toHaveLength(0);
});
