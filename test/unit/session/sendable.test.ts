// Nothing the provider refuses by its own rules is stored or sent, through real Sessions against the
// fake made strict (it answers 400 to what the Messages API refuses): an empty text block in a reply,
// whitespace streamed before an abort or a kill, a corrupt image read by the model or returned by a
// tool; and a database stored before the fix is repaired when it is opened (migration 6).
import { Database } from "bun:sqlite";
import { beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import type { Message } from "../../../src/agent/types.ts";
import { defineTool } from "../../../src/sdk.ts";
import { applyMigration } from "../../../src/session/migrations.ts";
import { Session } from "../../../src/session/session.ts";
import { Store } from "../../../src/session/store.ts";
import read from "../../../tools/read.ts";
import { conversationProblems, sentMessages, sentResults, type Kit, useKit } from "../../support/session-kit.ts";
import { tempDir } from "../../support/temp-dir.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const done = { reply: [{ type: "text" as const, text: "Done." }] };
const PNG = readFileSync(join(import.meta.dir, "../../fixtures/images/red.png"));

test("an empty text block before a tool call is neither stored nor sent back", async () => {
  const { session } = kit.create({ tools: [read] });
  writeFileSync(join(kit.dir.path, "a.txt"), "alpha\n");
  kit.fake.script({ reply: [{ type: "text", text: "" }, { type: "tool_use", name: "read", input: { path: "a.txt" } }] }, done);

  const result = await session.prompt("read it");

  expect(result.status).toBe("success");
  expect(kit.fake.requests).toHaveLength(2);
  expect(sentMessages(kit.fake.requests[1])[1]!.content.map((b) => b.type)).toEqual(["tool_use"]);
  expect(kit.store.messages(session.id)[1]!.content.map((b) => b.type)).toEqual(["tool_use"]);
});

test("only whitespace streamed before an abort is not kept: the session goes on", async () => {
  const { session, log } = kit.create();
  kit.fake.script({ hang: true, afterText: "  \n\t" });
  const running = session.prompt("one");
  await log.waitFor("text_delta");
  session.abort();
  expect((await running).status).toBe("interrupted");
  expect(kit.store.messages(session.id).map((m) => m.role)).toEqual(["user"]);

  kit.fake.script(done);
  expect((await session.prompt("two")).status).toBe("success");
  expect(conversationProblems(sentMessages(kit.fake.requests.at(-1)))).toEqual([]);
});

test("only whitespace streamed before a kill: opening the session repairs nothing into a blank reply", async () => {
  const row = kit.store.createSession({ id: "s_killed_blank", cwd: kit.dir.path, model: "claude-test-1" });
  const user = kit.store.appendEvent(row.id, { type: "user", text: "one" });
  kit.store.appendMessage(row.id, { role: "user", content: [{ type: "text", text: "one" }] }, user.seq);
  kit.store.appendEvent(row.id, { type: "text_delta", text: " " });
  kit.store.appendEvent(row.id, { type: "text_delta", text: "\n" });
  kit.fake.script(done);

  const session = Session.open(kit.store.getSession(row.id)!, kit.options());

  expect(session.history()).toHaveLength(1);
  expect((await session.prompt("two")).status).toBe("success");
});

test("a corrupt PNG read by the model comes back as an error result, with no image sent", async () => {
  const { session } = kit.create({ tools: [read] });
  writeFileSync(join(kit.dir.path, "chart.png"), PNG.subarray(0, PNG.length - 30));
  kit.fake.script({ reply: [{ type: "tool_use", name: "read", input: { path: "chart.png" } }] }, done);

  expect((await session.prompt("look at chart.png")).status).toBe("success");

  const [result] = sentResults(kit.fake.requests[1]);
  expect(result).toMatchObject({ is_error: true });
  expect(JSON.stringify(result)).toContain("is not a usable image/png image: it ends before its last chunk (IEND): the file is cut short");
  expect(JSON.stringify(result)).not.toContain('"image"');
});

test("a corrupt image a tool returns is replaced by a note saying why; a good one is sent", async () => {
  const look = defineTool({
    name: "look",
    description: "Looks at pictures",
    input: v.object({}),
    permissions: () => [],
    run: () => ({
      output: "two pictures",
      images: [
        { mediaType: "image/png", base64: Buffer.from("not a png").toString("base64") },
        { mediaType: "image/png", base64: PNG.toString("base64") },
      ],
    }),
  });
  const { session } = kit.create({ tools: [look] });
  kit.fake.script({ reply: [{ type: "tool_use", name: "look", input: {} }] }, done);

  expect((await session.prompt("look")).status).toBe("success");

  const [result] = sentResults(kit.fake.requests[1]);
  expect(result!.content).toEqual([
    { type: "text", text: "two pictures" },
    { type: "text", text: "[an image was left out: it is not a usable image/png (it does not start with the PNG signature)]" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } },
  ]);
});

test("a database stored before the fix is repaired at open: the session it held can be continued", async () => {
  const dir = tempDir("rein-old-db-");
  const path = join(dir.path, "rein.db");
  const old = new Database(path, { create: true });
  for (let version = 1; version <= 5; version++) applyMigration(old, version);
  old.exec("PRAGMA user_version = 5");
  old.query(`INSERT INTO sessions (id, cwd, model, created_at, updated_at) VALUES ('s_old', ?, 'claude-test-1', 1, 1)`).run(dir.path);
  const badImage = { type: "image", source: { type: "base64", media_type: "image/png", data: Buffer.from("garbage").toString("base64") } };
  const stored: Message[] = [
    { role: "user", content: [{ type: "text", text: "look" }] },
    { role: "assistant", content: [{ type: "text", text: "" }, { type: "tool_use", id: "toolu_1", name: "read", input: { path: "x.png" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "x.png" }, badImage] }] },
    { role: "assistant", content: [{ type: "text", text: " \n " }] },
    { role: "user", content: [{ type: "text", text: "and now?" }] },
    { role: "assistant", content: [{ type: "text", text: "A fine answer." }] },
  ];
  stored.forEach((message, idx) =>
    old
      .query(`INSERT INTO messages (session_id, idx, role, content, seq, status, created_at) VALUES ('s_old', ?, ?, ?, ?, 'complete', 1)`)
      .run(idx, message.role, JSON.stringify(message.content), idx + 1),
  );
  old.close();

  const { store } = Store.open(path);
  try {
    const repaired = store.conversation("s_old");
    expect(repaired[1]!.content.map((b) => b.type)).toEqual(["tool_use"]);
    expect(JSON.stringify(repaired[2])).toContain("[an image was left out: it is not a usable image/png");
    expect(repaired[3]!.content).toEqual([{ type: "text", text: "(no reply: this turn held no text, or was cut off before any)" }]);
    expect(repaired[5]).toEqual(stored[5]!);

    kit.fake.script(done);
    const session = Session.open(store.getSession("s_old")!, { ...kit.options(), store });
    expect((await session.prompt("go on")).status).toBe("success");
    expect(sentMessages(kit.fake.requests.at(-1))).toHaveLength(7);
  } finally {
    store.close();
    dir.remove();
  }
});

test("a database already past migration 6 with replies of line breaks or tabs only is repaired at open", async () => {
  const dir = tempDir("rein-old-db-");
  const path = join(dir.path, "rein.db");
  const old = new Database(path, { create: true });
  for (let version = 1; version <= 8; version++) applyMigration(old, version);
  old.exec("PRAGMA user_version = 8");
  old.query(`INSERT INTO sessions (id, cwd, model, created_at, updated_at) VALUES ('s_ws', ?, 'claude-test-1', 1, 1)`).run(dir.path);
  const stored: Message[] = [
    { role: "user", content: [{ type: "text", text: "look" }] },
    { role: "assistant", content: [{ type: "text", text: "\n\n" }, { type: "tool_use", id: "toolu_1", name: "read", input: { path: "x" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "\t \n" }] },
    { role: "assistant", content: [{ type: "text", text: "\t\n" }] },
  ];
  stored.forEach((message, idx) =>
    old
      .query(`INSERT INTO messages (session_id, idx, role, content, seq, status, created_at) VALUES ('s_ws', ?, ?, ?, ?, 'complete', 1)`)
      .run(idx, message.role, JSON.stringify(message.content), idx + 1),
  );
  old.close();

  const { store } = Store.open(path);
  try {
    const repaired = store.conversation("s_ws");
    expect(repaired[1]!.content.map((b) => b.type)).toEqual(["tool_use"]);
    expect(repaired[2]!.content).toEqual([{ type: "tool_result", tool_use_id: "toolu_1", content: "(no output)" }]);
    expect(repaired[3]!.content).toEqual([{ type: "text", text: "(no reply: this turn held no text, or was cut off before any)" }]);
    kit.fake.script(done);
    const session = Session.open(store.getSession("s_ws")!, { ...kit.options(), store });
    expect((await session.prompt("go on")).status).toBe("success");
  } finally {
    store.close();
    dir.remove();
  }
});

test("the strict fake refuses what the API refuses (so the tests above can fail)", async () => {
  const row = kit.store.createSession({ id: "s_unrepaired", cwd: kit.dir.path, model: "claude-test-1" });
  const user = kit.store.appendEvent(row.id, { type: "user", text: "one" });
  kit.store.appendMessage(row.id, { role: "user", content: [{ type: "text", text: "one" }] }, user.seq);
  kit.store.appendMessage(row.id, { role: "assistant", content: [{ type: "text", text: "  " }] }, user.seq);

  const result = await Session.open(kit.store.getSession(row.id)!, kit.options()).prompt("two");

  expect(result.status).toBe("error");
  expect(result.error).toContain("text content blocks must contain non-whitespace text");
});

test("a blank prompt is refused before anything is stored or sent", async () => {
  const { session } = kit.create();
  const result = await session.prompt(" \n ");
  expect(result).toMatchObject({ status: "error", error: "the prompt is empty (or only whitespace): nothing was sent" });
  expect(kit.store.messages(session.id)).toEqual([]);
  expect(kit.fake.requests).toHaveLength(0);
});
