// Undo after subagents with real sessions, real git and files and the fake model (issue 31 item 6).
// A foreground child's files are in its parent's checkpoint. A background worker that writes after
// its parent's run ended (the terminal, the server: nobody waits for it) is not: an undo of the
// turn that started it refuses, names the file and the worker, and cuts nothing of the conversation.
import { beforeEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinAgents } from "../../../src/agents/builtin.ts";
import { permissionEngine } from "../../../src/app/factory.ts";
import { Session } from "../../../src/session/session.ts";
import { withSubagents } from "../../../src/session/subagents.ts";
import { undoTurns } from "../../../src/session/undo.ts";
import write from "../../../tools/write.ts";
import type { FakeStep } from "../../fake/types.ts";
import { ALLOW_ALL, type Kit, useKit } from "../../support/session-kit.ts";

const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

const checkpointsDir = () => join(kit.dir.path, "checkpoints");
const text = (t: string): FakeStep => ({ reply: [{ type: "text", text: t }] });
const isChild = (body: any) => JSON.stringify(body.messages[0]?.content ?? "").includes("write late.txt");

function parent(cwd: string): Session {
  const options = { ...kit.options({ tools: [write], rules: ALLOW_ALL }), expand: permissionEngine({ projectRoot: cwd, home: kit.dir.path, reinDirs: [] }), checkpoints: { dir: checkpointsDir() } };
  return Session.create(cwd, withSubagents(options, { agents: builtinAgents(kit.dir.path) }));
}

const undo = (id: string, part: { code: boolean; conversation: boolean }) => undoTurns(kit.store, kit.store.getSession(id)!, { checkpointsDir: checkpointsDir(), turns: 1, force: false, ...part });

test("a worker's file written after its parent's run: undo of that turn refuses, names it and the worker, and cuts nothing", async () => {
  const cwd = mkdtempSync(join(kit.dir.path, "ws-"));
  const session = parent(cwd);
  let release!: () => void;
  const later = new Promise<void>((resolve) => (release = resolve));
  kit.fake.script(
    { reply: [{ type: "tool_use", name: "write", input: { path: "own.txt", content: "mine\n" } }, { type: "tool_use", name: "task", id: "toolu_bg", input: { description: "late", prompt: "write late.txt", subagent_type: "general", run_in_background: true } }] },
    ...Array.from({ length: 3 }, () => ({
      respond: (body: any): FakeStep => {
        if (!isChild(body)) return text("started it");
        if (JSON.stringify(body.messages).includes("tool_result")) return text("written");
        return { reply: [{ type: "tool_use", name: "write", input: { path: "late.txt", content: "late\n" } }], waitFor: later };
      },
    })),
  );
  expect((await session.prompt("write and start a writer")).status).toBe("success");
  // The run is over (its checkpoint taken); now the worker writes, and finishes.
  release();
  const worker = () => kit.store.childSessions(session.id)[0];
  for (let i = 0; i < 1000 && worker()?.task_state !== "completed"; i++) await Bun.sleep(5);
  expect(worker()?.task_state).toBe("completed");
  expect(readFileSync(join(cwd, "late.txt"), "utf8")).toBe("late\n");
  const before = kit.store.messages(session.id).length;

  const refused = await undo(session.id, { code: true, conversation: true });

  expect(refused).toEqual({ type: "refused", reason: expect.stringContaining(`subagents of these turns changed a file this session's checkpoints do not cover`), files: ["late.txt"] });
  expect(refused.type === "refused" && refused.reason).toContain(`rein undo -r ID --code for the subagent (${worker()!.id})`);
  expect(kit.store.messages(session.id)).toHaveLength(before);
  expect(readFileSync(join(cwd, "own.txt"), "utf8")).toBe("mine\n");
  expect(readFileSync(join(cwd, "late.txt"), "utf8")).toBe("late\n");

  // The ways it names: the worker's own undo, then the parent's.
  expect((await undo(worker()!.id, { code: true, conversation: false })).type).toBe("done");
  expect(existsSync(join(cwd, "late.txt"))).toBe(false);
  const done = await undo(session.id, { code: true, conversation: true });
  expect(done).toMatchObject({ type: "done", code: { type: "done", files: ["own.txt"] } });
  expect(existsSync(join(cwd, "own.txt"))).toBe(false);
  expect(kit.store.messages(session.id)).toHaveLength(0);
  session.close();
});

test("a foreground child's files are the parent turn's: undo puts them back with the turn", async () => {
  const cwd = mkdtempSync(join(kit.dir.path, "ws-"));
  const session = parent(cwd);
  kit.fake.script(
    { reply: [{ type: "tool_use", name: "task", id: "toolu_fg", input: { description: "late", prompt: "write late.txt", subagent_type: "general" } }] },
    { reply: [{ type: "tool_use", name: "write", input: { path: "late.txt", content: "late\n" } }] },
    text("written"),
    text("the child wrote it"),
  );
  expect((await session.prompt("let a child write")).status).toBe("success");
  expect(readFileSync(join(cwd, "late.txt"), "utf8")).toBe("late\n");

  const done = await undo(session.id, { code: true, conversation: true });

  expect(done).toMatchObject({ type: "done", code: { type: "done", files: ["late.txt"] } });
  expect(existsSync(join(cwd, "late.txt"))).toBe(false);
  expect(kit.store.messages(session.id)).toHaveLength(0);
  session.close();
});
