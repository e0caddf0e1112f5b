// One process drives a session at a time, through the compiled binary: concurrent `rein -c -p` runs
// on one session take turns (or are refused after their bounded wait, exit 1 with the reason), the
// stored conversation stays one the API accepts, and a holder killed mid-run keeps nothing locked.
import { expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import type { Message } from "../../src/agent/types.ts";
import { conversationProblems, sentMessages } from "../support/session-kit.ts";
import { text, world, type World } from "./harness.ts";

const readCall = { type: "tool_use" as const, name: "read", input: { path: "notes.txt" } };

async function storedConversation(w: World): Promise<{ id: string; messages: Message[] }> {
  const [listed] = JSON.parse((await w.run(["sessions", "list", "--json"])).stdout) as { id: string }[];
  const exported = JSON.parse((await w.run(["sessions", "export", listed!.id, "--format", "json"])).stdout);
  return { id: listed!.id, messages: exported.messages.map((m: Message) => ({ role: m.role, content: m.content })) };
}

test.concurrent("ten concurrent rein -c -p on one session take turns: all succeed, every tool_use has its result", async () => {
  await using w = await world();
  await writeFile(w.path("notes.txt"), "remember the milk\n");
  w.fake.script({ reply: [text("Started.")] });
  expect((await w.run(["-p", "start"])).code).toBe(0);
  for (let i = 0; i < 10; i++) w.fake.script({ reply: [readCall] }, { reply: [text(`Answer ${i}.`)] });

  const runs = await Promise.all(
    Array.from({ length: 10 }, (_, i) => w.run(["-c", "-p", `question ${i}`], { env: { REIN_LEASE_WAIT_MS: "120000" }, timeoutMs: 120_000 })),
  );

  expect(runs.map((r) => r.code)).toEqual(Array(10).fill(0));
  for (const request of w.fake.requests) expect(conversationProblems(sentMessages(request))).toEqual([]);
  const { messages } = await storedConversation(w);
  expect(messages).toHaveLength(2 + 10 * 4);
  expect(conversationProblems(messages)).toEqual([]);
}, 150_000);

test.concurrent("while one run holds the session, ten more are refused after their wait: exit 1 and the reason", async () => {
  await using w = await world();
  await writeFile(w.path("notes.txt"), "remember the milk\n");
  w.fake.script({ reply: [text("Started.")] });
  expect((await w.run(["-p", "start"])).code).toBe(0);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let arrived!: () => void;
  const holding = new Promise<void>((resolve) => (arrived = resolve));
  w.fake.script({ reply: [readCall] }, { respond: () => (arrived(), { reply: [text("Held.")], waitFor: gate }) });

  const holder = w.start(["-c", "-p", "hold it"], { timeoutMs: 60_000 });
  await holding;
  const losers = await Promise.all(Array.from({ length: 10 }, (_, i) => w.run(["-c", "-p", `loser ${i}`], { env: { REIN_LEASE_WAIT_MS: "200" } })));
  open();
  const held = await holder.exited;

  expect(held.code).toBe(0);
  for (const loser of losers) {
    expect(loser.code).toBe(1);
    expect(loser.stderr).toMatch(/^rein: session s_\S+ is in use by another rein \(pid \d+, since [\d:]+ UTC\); waited [\d.]+ s for it\. Try again when that run has finished, or start a new session \(without -c or -r\)\n/);
  }
  const { messages } = await storedConversation(w);
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
  expect(conversationProblems(messages)).toEqual([]);
  expect(JSON.stringify(messages)).not.toContain("loser");
}, 90_000);

test.concurrent("a holder killed during its tool call keeps nothing locked: the next run goes on at once, repaired", async () => {
  await using w = await world();
  w.fake.script({ reply: [{ type: "tool_use", name: "bash", input: { command: "sleep 30" } }] });
  const killed = w.start(["-p", "wait a while", "--allow", "bash", "--output-format", "stream-json"]);
  await killed.waitForEvent("tool_start");
  killed.kill("SIGKILL");
  await killed.exited;
  w.fake.script({ reply: [text("Back.")] });

  const next = await w.run(["-c", "-p", "go on"], { env: { REIN_LEASE_WAIT_MS: "0" } });

  expect(next.code).toBe(0);
  const sent = sentMessages(w.fake.requests.at(-1));
  expect(conversationProblems(sent)).toEqual([]);
  expect(JSON.stringify(sent[2])).toContain("Interrupted: rein stopped before this tool call finished");
}, 60_000);
