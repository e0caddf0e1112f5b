// rein sessions rm (to the trash) | trash | restore | prune | fork, and rein doctor's database checks.
// A session's age is set in the database file itself: no test waits for time to pass.
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { join } from "node:path";
import { bash, blocksOf, messagesOf, resultText, text, world, type World } from "./harness.ts";

const DAY = 24 * 60 * 60 * 1000;

async function oneRun(w: World, prompt: string, answer: string): Promise<string> {
  w.fake.script({ reply: [text(answer)] });
  const r = await w.run(["-p", prompt, "--output-format", "json"]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).session_id;
}

/** Moves a session's last update (and its trashing, if any) `days` into the past. */
function age(w: World, id: string, days: number): void {
  const db = new Database(join(w.dataDir, "rein.db"));
  try {
    db.query(`UPDATE sessions SET updated_at = updated_at - ?1, deleted_at = deleted_at - ?1 WHERE id = ?2`).run(days * DAY, id);
  } finally {
    db.close();
  }
}

const listedIds = async (w: World, what: "list" | "trash") =>
  (JSON.parse((await w.run(["sessions", what, "--json"])).stdout) as { id: string }[]).map((r) => r.id);

test.concurrent("rm moves a session to the trash: gone from list, listed in trash, restore brings it back whole", async () => {
  await using w = await world();
  const kept = await oneRun(w, "kept question", "kept answer");
  const binned = await oneRun(w, "binned question", "binned answer");

  const rm = await w.run(["sessions", "rm", binned]);
  expect(rm.code).toBe(0);
  expect(rm.stdout).toBe(
    `moved session ${binned} to the trash (rein sessions restore ${binned} brings it back; rein sessions prune removes it after 30 days)\n`,
  );
  expect(await listedIds(w, "list")).toEqual([kept]);
  const trash = await w.run(["sessions", "trash"]);
  expect(trash.stdout).toMatch(new RegExp(`^${binned}  trashed \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  binned question  ${w.cwd}\\n$`));
  const show = await w.run(["sessions", "show", binned]);
  expect(show.code).toBe(2);
  expect(show.stderr).toContain(`rein sessions restore ${binned}`);
  const resume = await w.run(["-r", binned, "-p", "more"]);
  expect(resume.code).toBe(2);
  expect(w.fake.requests).toHaveLength(2);

  const restore = await w.run(["sessions", "restore", binned.slice(0, -2)]);
  expect(restore.code).toBe(0);
  expect(restore.stdout).toBe(`restored session ${binned}\n`);
  expect((await listedIds(w, "list")).sort()).toEqual([kept, binned].sort());
  expect((await w.run(["sessions", "trash"])).stdout).toBe("the trash is empty\n");
  const back = await w.run(["sessions", "show", binned]);
  expect(back.stdout).toContain("binned answer");
  expect((await w.run(["sessions", "restore", binned])).code).toBe(2);
});

test.concurrent("prune says what it would remove and removes nothing; with --yes it removes exactly that", async () => {
  await using w = await world();
  const fresh = await oneRun(w, "fresh", "new");
  const stale = await oneRun(w, "stale", "old");
  const binnedLongAgo = await oneRun(w, "binned long ago", "gone soon");
  const binnedRecently = await oneRun(w, "binned recently", "still kept");
  await w.run(["sessions", "rm", binnedLongAgo]);
  await w.run(["sessions", "rm", binnedRecently]);
  age(w, stale, 40);
  age(w, binnedLongAgo, 31);
  age(w, binnedRecently, 29);

  const dry = await w.run(["sessions", "prune", "--older-than", "30d"]);

  expect(dry.code).toBe(0);
  const lines = dry.stdout.split("\n");
  expect(lines[0]).toBe("would remove 2 sessions (nothing was removed):");
  expect(lines.find((l) => l.startsWith(stale))).toMatch(/ {2}updated .* {2}\(last updated more than 30d ago\)$/);
  expect(lines.find((l) => l.startsWith(binnedLongAgo))).toMatch(/ {2}trashed .* {2}\(in the trash for more than 30 days\)$/);
  expect(lines.slice(3)).toEqual(["run again with --yes to remove them", ""]);
  expect((await listedIds(w, "list")).sort()).toEqual([fresh, stale].sort());
  expect((await listedIds(w, "trash")).sort()).toEqual([binnedLongAgo, binnedRecently].sort());

  const yes = await w.run(["sessions", "prune", "--older-than", "30d", "--yes"]);

  expect(yes.code).toBe(0);
  expect(yes.stdout.split("\n")[0]).toBe("removed 2 sessions:");
  expect(yes.stdout).toContain(stale);
  expect(yes.stdout).toContain(binnedLongAgo);
  expect(await listedIds(w, "list")).toEqual([fresh]);
  expect(await listedIds(w, "trash")).toEqual([binnedRecently]);
  expect((await w.run(["sessions", "show", stale])).code).toBe(2);
  const again = await w.run(["sessions", "prune", "--older-than", "30d", "--yes"]);
  expect(again.stdout).toBe("nothing to prune: no session last updated more than 30d ago, nothing in the trash for more than 30 days\n");
  const bad = await w.run(["sessions", "prune", "--older-than", "soon"]);
  expect(bad.code).toBe(2);
});

test.concurrent("fork copies the conversation into a new session that -r continues with the forked history", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("Checking."), bash("echo forked-marker")] }, { reply: [text("It printed forked-marker.")] });
  const first = await w.run(["-p", "run the marker", "--output-format", "json"]);
  expect(first.code).toBe(0);
  const source = JSON.parse(first.stdout).session_id as string;

  const forked = await w.run(["sessions", "fork", source, "--json"]);
  expect(forked.code).toBe(0);
  const fork = JSON.parse(forked.stdout) as { id: string; from: string; messages: number; requested: number };
  expect(fork).toMatchObject({ from: source, messages: 4, requested: 4 });
  expect(fork.id).toMatch(/^s_/);
  expect(fork.id).not.toBe(source);
  const show = await w.run(["sessions", "show", fork.id]);
  expect(show.stdout).toContain("run the marker");
  expect(show.stdout).toContain("**tool bash**");
  expect(show.stdout).toContain("It printed forked-marker.");

  w.fake.script({ reply: [text("Continued in the fork.")] });
  const resumed = await w.run(["-r", fork.id, "-p", "and now?", "--output-format", "json"]);

  expect(resumed.code).toBe(0);
  expect(JSON.parse(resumed.stdout).session_id).toBe(fork.id);
  const sent = messagesOf(w.fake.requests.at(-1));
  expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  expect(blocksOf(sent[0])[0]?.text).toBe("run the marker");
  expect(resultText(blocksOf(sent[2]).find((b) => b.type === "tool_result")).trim()).toBe("forked-marker");
  expect(blocksOf(sent[4])[0]?.text).toBe("and now?");
  const original = JSON.parse((await w.run(["sessions", "export", source, "--format", "json"])).stdout);
  expect(original.messages).toHaveLength(4);
});

test.concurrent("fork --at in the middle of a tool call is cut back to before the call", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("echo one")] }, { reply: [text("done")] });
  const source = JSON.parse((await w.run(["-p", "start", "--output-format", "json"])).stdout).session_id as string;

  const forked = await w.run(["sessions", "fork", source, "--at", "2"]);

  expect(forked.code).toBe(0);
  const id = /into (s_\w+)/.exec(forked.stdout)?.[1] ?? "";
  expect(forked.stdout).toBe(
    `forked session ${source} into ${id} with 1 message (not 2: the fork ends before message 2, a tool call whose results it would not have)\n` +
      `continue it: rein -r ${id} -p "..."\n`,
  );
  const exported = JSON.parse((await w.run(["sessions", "export", id, "--format", "json"])).stdout);
  expect(exported.messages.map((m: { role: string }) => m.role)).toEqual(["user"]);
  expect(exported.events.map((e: { type: string }) => e.type)).toEqual(["session", "user"]);

  w.fake.script({ reply: [text("fresh start")] });
  const resumed = await w.run(["-r", id, "-p", "again"]);
  expect(resumed.code).toBe(0);
  const sent = messagesOf(w.fake.requests.at(-1)).flatMap((m) => blocksOf(m));
  expect(sent.some((b) => b.type === "tool_use" || b.type === "tool_result")).toBe(false);
  expect(sent.map((b) => b.text)).toEqual(["start", "again"]);
});

test.concurrent("doctor checks the database: quick_check, sizes, sessions and trash", async () => {
  await using w = await world();
  await oneRun(w, "one", "1");
  await w.run(["sessions", "rm", await oneRun(w, "two", "2")]);

  const r = await w.run(["doctor"]);

  expect(r.stdout).toContain(`ok   database      ${join(w.dataDir, "rein.db")} opens (WAL)\n`);
  expect(r.stdout).toContain("ok   db integrity  PRAGMA quick_check: ok\n");
  expect(r.stdout).toMatch(/ok {3}db size {7}\d+ KB database, \d+ KB WAL\n/);
  expect(r.stdout).toContain("ok   sessions      1 (1 in the trash; rein sessions prune empties what is older than 30 days)\n");
});
