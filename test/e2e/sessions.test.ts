// rein sessions list | show | export | rm, and picking a session with -c and -r.
import { expect, test } from "bun:test";
import { blocksOf, messagesOf, text, world, type World } from "./harness.ts";

async function oneRun(w: World, prompt: string, answer: string): Promise<string> {
  w.fake.script({ reply: [text(answer)] });
  const r = await w.run(["-p", prompt, "--output-format", "json"]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).session_id;
}

test.concurrent("list shows every session; show prints the conversation; export json; rm removes one", async () => {
  await using w = await world();
  const first = await oneRun(w, "first question", "first answer");
  const second = await oneRun(w, "second question", "second answer");
  expect(first).not.toBe(second);

  const list = await w.run(["sessions", "list"]);
  expect(list.code).toBe(0);
  expect(list.stdout).toContain(first);
  expect(list.stdout).toContain(second);
  expect(list.stdout).toContain("first question");

  const show = await w.run(["sessions", "show", first]);
  expect(show.code).toBe(0);
  expect(show.stdout).toContain("first question");
  expect(show.stdout).toContain("first answer");
  expect(show.stdout).not.toContain("second answer");

  const exported = await w.run(["sessions", "export", second, "--format", "json"]);
  expect(exported.code).toBe(0);
  const data = JSON.parse(exported.stdout);
  expect(data.session.id).toBe(second);
  expect(data.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
  expect(data.messages[1].content).toEqual([{ type: "text", text: "second answer" }]);
  expect(data.events[0].type).toBe("session");
  expect(data.events.at(-1).type).toBe("result");

  const rm = await w.run(["sessions", "rm", first]);
  expect(rm.code).toBe(0);
  const after = await w.run(["sessions", "list"]);
  expect(after.stdout).not.toContain(first);
  expect(after.stdout).toContain(second);
  const gone = await w.run(["sessions", "show", first]);
  expect(gone.code).toBe(2);
});

test.concurrent("-r with a unique id prefix resumes that session, not the latest", async () => {
  await using w = await world();
  const first = await oneRun(w, "about apples", "apples are red");
  const second = await oneRun(w, "about pears", "pears are green");
  const prefix = shortestUniquePrefix(first, [second]);

  w.fake.script({ reply: [text("more apples")] });
  const r = await w.run(["-r", prefix, "-p", "and more?", "--output-format", "json"]);

  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).session_id).toBe(first);
  const sent = messagesOf(w.fake.requests.at(-1)).map((m) => blocksOf(m)[0]?.text);
  expect(sent).toEqual(["about apples", "apples are red", "and more?"]);
});

test.concurrent("-c continues the latest session in this directory", async () => {
  await using w = await world();
  await oneRun(w, "older", "old answer");
  const latest = await oneRun(w, "newer", "new answer");

  w.fake.script({ reply: [text("continued")] });
  const r = await w.run(["-c", "-p", "next", "--output-format", "json"]);

  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).session_id).toBe(latest);
  expect(messagesOf(w.fake.requests.at(-1)).map((m) => blocksOf(m)[0]?.text)).toEqual(["newer", "new answer", "next"]);
});

test.concurrent("-r with an unknown id and -c with no session: exit 2, nothing sent", async () => {
  await using w = await world();
  const resume = await w.run(["-r", "nosuch", "-p", "hi"]);
  expect(resume.code).toBe(2);
  expect(resume.stderr).toContain("nosuch");
  const cont = await w.run(["-c", "-p", "hi"]);
  expect(cont.code).toBe(2);
  expect(cont.stderr).toContain("no session to continue");
  expect(w.fake.requests).toHaveLength(0);
});

function shortestUniquePrefix(id: string, others: string[]): string {
  for (let n = 1; n <= id.length; n++) {
    const prefix = id.slice(0, n);
    if (!others.some((o) => o.startsWith(prefix))) return prefix;
  }
  return id;
}

test.concurrent("10 print-mode runs at once on one new database: all succeed, every session is stored whole", async () => {
  await using w = await world();
  for (let i = 0; i < 10; i++) w.fake.script({ reply: [text(`answer ${i} `.repeat(40))], chunkSize: 7 });
  const runs = await Promise.all(Array.from({ length: 10 }, (_, i) => w.run(["-p", `question ${i}`])));
  expect(runs.map((r) => r.code)).toEqual(Array(10).fill(0));
  expect(runs.map((r) => r.stderr).join("")).not.toContain("database");
  const listed = JSON.parse((await w.run(["sessions", "list", "--json"])).stdout) as { id: string }[];
  expect(listed).toHaveLength(10);
  for (const { id } of listed) {
    const { events } = JSON.parse((await w.run(["sessions", "export", id, "--format", "json"])).stdout) as { events: { seq: number; type: string }[] };
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.type).toBe("result");
  }
});

test.concurrent("sessions show totals the session's tokens and cost over its runs", async () => {
  await using w = await world();
  w.fake.script(
    { reply: [text("first")], usage: { input_tokens: 1000, output_tokens: 100 } },
    { reply: [text("second")], usage: { input_tokens: 2000, output_tokens: 200, cache_read_input_tokens: 500 } },
  );
  expect((await w.run(["-p", "one"])).code).toBe(0);
  expect((await w.run(["-c", "-p", "two"])).code).toBe(0);
  const [listed] = JSON.parse((await w.run(["sessions", "list", "--json"])).stdout) as { id: string }[];
  const shown = await w.run(["sessions", "show", listed!.id]);
  // claude-sonnet-5-5: $2 in, $10 out, $0.20 cache read per million tokens
  expect(shown.stdout).toContain("2 runs · tokens: in 3000 (cache read 500, write 0) · out 300 · $0.0091");
});
