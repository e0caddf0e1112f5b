// /undo and /redo as the terminal runs them, on a real Session (real bash, git and files, the fake
// model): the code and the conversation go back, the next prompt goes on from before the turn.
import { beforeEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { undoSlash } from "../../../src/cli/term/undo-slash.ts";
import { permissionEngine } from "../../../src/app/factory.ts";
import { Session } from "../../../src/session/session.ts";
import bash from "../../../tools/bash.ts";
import { ALLOW_ALL, type Kit, sentMessages, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

function session(cwd: string): Session {
  const options = { ...kit.options({ tools: [bash], rules: ALLOW_ALL }), expand: permissionEngine({ projectRoot: cwd, home: kit.dir.path, reinDirs: [] }), checkpoints: { dir: join(kit.dir.path, "checkpoints") } };
  return Session.create(cwd, options);
}

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

test("/undo puts back the code and cuts the conversation; the next prompt starts from before the turn; /redo puts both back", async () => {
  const cwd = mkdtempSync(join(kit.dir.path, "ws-"));
  writeFileSync(join(cwd, "a.txt"), "one\n");
  const s = session(cwd);
  kit.fake.script({ reply: [{ type: "tool_use", name: "bash", input: { command: "echo two > a.txt" } }] }, { reply: [{ type: "text", text: "done" }] });
  expect((await s.prompt("change a")).status).toBe("success");

  const undone = plain(await undoSlash(kit.store, s, false, ""));
  expect(undone).toBe('code of 1 turn undone: 1 file put back\n  a.txt\nconversation cut back to before "change a" (4 messages)');
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");

  const redone = plain(await undoSlash(kit.store, s, true, ""));
  expect(redone).toContain("code of 1 turn redone: 1 file changed again");
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("two\n");

  expect(plain(await undoSlash(kit.store, s, false, "conversation"))).toBe('conversation cut back to before "change a" (4 messages)');
  expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("two\n");
  kit.fake.script({ reply: [{ type: "text", text: "fresh" }] });
  await s.prompt("something else");
  expect(sentMessages(kit.fake.requests.at(-1)).map((m) => m.role)).toEqual(["user"]);
});

test("/undo with a bad argument says how to use it", async () => {
  const cwd = mkdtempSync(join(kit.dir.path, "ws-"));
  expect(plain(await undoSlash(kit.store, session(cwd), false, "everything"))).toBe("usage: /undo [code|conversation] [N] (both by default; N turns back, 1 by default), /redo");
  expect(plain(await undoSlash(kit.store, session(cwd), false, ""))).toBe("the conversation has no turn to undo");
});
