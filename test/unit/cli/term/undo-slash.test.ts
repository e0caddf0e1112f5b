// /undo and /redo in the terminal on a real Session that took real checkpoints of the files its
// turns wrote (the write tool, the fake model): the file put back and changed again, the code or
// the conversation alone, a file changed since the turn refused with the --force hint, the usage
// line for a wrong argument, and a session without checkpoints.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { undoSlash } from "../../../../src/cli/term/undo-slash.ts";
import { Session } from "../../../../src/session/session.ts";
import write from "../../../../tools/write.ts";
import { useKit } from "../../../support/session-kit.ts";

const kit = useKit({ plain: true });

let places = 0;
function session(checkpoints = true): { session: Session; cwd: string } {
  const cwd = join(kit().dir.path, `workspace-${++places}`);
  mkdirSync(cwd, { recursive: true });
  const options = { ...kit().options({ tools: [write] }), ...(checkpoints ? { checkpoints: { dir: join(kit().dir.path, "checkpoints") } } : {}) };
  return { session: Session.create(cwd, options), cwd };
}
async function writes(s: Session, path: string, content: string): Promise<void> {
  kit().fake.script({ reply: [{ type: "tool_use", name: "write", input: { path, content } }] }, { reply: [{ type: "text", text: `wrote ${path}` }] });
  await s.prompt(`write ${path}`);
}
const turns = (s: Session) => s.history().filter((m) => m.role === "user" && typeof m.content !== "string" && m.content.some((b) => b.type === "text")).length;

test("/undo puts the file back and takes the turn out; /redo changes it again and brings the turn back", async () => {
  const { session: s, cwd } = session();
  await writes(s, "notes.md", "first\n");
  expect(readFileSync(join(cwd, "notes.md"), "utf8")).toBe("first\n");
  const undone = await undoSlash(kit().store, s, false, "");
  expect(undone).toContain("code of 1 turn undone: 1 file put back");
  expect(undone).toContain("notes.md");
  expect(existsSync(join(cwd, "notes.md"))).toBe(false);
  const redone = await undoSlash(kit().store, s, true, "");
  expect(redone).toContain("code of 1 turn redone: 1 file changed again");
  expect(readFileSync(join(cwd, "notes.md"), "utf8")).toBe("first\n");
});

test("/undo code leaves the conversation; /undo conversation leaves the files", async () => {
  const { session: s, cwd } = session();
  await writes(s, "a.txt", "A\n");
  await writes(s, "b.txt", "B\n");
  const before = turns(s);
  await undoSlash(kit().store, s, false, "code");
  expect(existsSync(join(cwd, "b.txt"))).toBe(false);
  expect(existsSync(join(cwd, "a.txt"))).toBe(true);
  const reopened = Session.open(kit().store.getSession(s.id)!, { ...kit().options({ tools: [write] }), checkpoints: { dir: join(kit().dir.path, "checkpoints") } });
  expect(turns(reopened)).toBe(before);
  const talk = await undoSlash(kit().store, reopened, false, "conversation 2");
  expect(talk).not.toContain("put back");
  expect(existsSync(join(cwd, "a.txt"))).toBe(true);
  const after = Session.open(kit().store.getSession(s.id)!, kit().options());
  expect(turns(after)).toBe(before - 2);
});

test("a file changed since the turn is not overwritten: the refusal names it and how to force it", async () => {
  const { session: s, cwd } = session();
  await writes(s, "config.ini", "written by the turn\n");
  writeFileSync(join(cwd, "config.ini"), "edited by hand afterwards\n");
  const refused = await undoSlash(kit().store, s, false, "");
  expect(refused).toContain("config.ini");
  expect(refused).toEndWith(`(rein undo -r ${s.id} --force overwrites them)`);
  expect(readFileSync(join(cwd, "config.ini"), "utf8")).toBe("edited by hand afterwards\n");
});

test("a wrong argument is the usage line; nothing is undone", async () => {
  const { session: s, cwd } = session();
  await writes(s, "kept.txt", "kept\n");
  const usage = "usage: /undo [code|conversation] [N] (both by default; N turns back, 1 by default), /redo";
  for (const rest of ["0", "two", "code conversation 1", "1 2 3"]) expect(await undoSlash(kit().store, s, false, rest)).toBe(usage);
  expect(await undoSlash(kit().store, s, true, "2")).toBe(usage);
  expect(existsSync(join(cwd, "kept.txt"))).toBe(true);
});

test("nothing to redo, and a session without checkpoints, say so", async () => {
  const { session: s } = session();
  await writes(s, "x.txt", "x\n");
  expect(await undoSlash(kit().store, s, true, "")).toBe("nothing of this session was undone: there is nothing to redo");
  const { session: plain } = session(false);
  expect(await undoSlash(kit().store, plain, false, "")).toBe("this session takes no checkpoints: there is nothing to undo");
});
