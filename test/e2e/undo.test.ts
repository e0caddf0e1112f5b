// The compiled binary: a print-mode run whose shell changes files records a checkpoint, and
// `rein undo -c --code` puts the files back; `rein checkpoints` lists and shows it; redo redoes it.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { bash, messagesOf, text, world } from "./harness.ts";

test.concurrent("undo -c --code restores what a print-mode run's bash changed, and redo changes it again", async () => {
  await using w = await world();
  await writeFile(w.path("a.txt"), "before\n");
  await writeFile(w.path("gone.txt"), "keep me\n");
  w.fake.script({ reply: [bash("echo after > a.txt && rm gone.txt && echo new > new.txt && curl -s http://127.0.0.1:9/ || true")] }, { reply: [text("changed")] });
  const run = await w.runStream(["-p", "change the files", "--permission-mode", "auto"]);
  expect(run.code).toBe(0);
  const checkpoint = run.events.find((e) => e.type === "checkpoint");
  expect(checkpoint?.changed).toEqual(
    expect.arrayContaining([
      { status: "modified", path: "a.txt" },
      { status: "deleted", path: "gone.txt" },
      { status: "added", path: "new.txt" },
    ]),
  );

  const shown = await w.run(["sessions", "show", checkpoint!.session_id]);
  expect(shown.stdout).toContain("> changed 3 files: a.txt, gone.txt, new.txt (checkpoint 1; /undo or rein undo puts them back) · not undoable: reached the network: curl -s http://127.0.0.1:9/\n");

  const listed = await w.run(["checkpoints", "list"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain("3 files changed");
  const diff = await w.run(["checkpoints", "diff", "1"]);
  expect(diff.stdout).toContain("-before\n+after");

  const undo = await w.run(["undo", "-c", "--code"]);
  expect(undo.stderr).toBe("");
  expect(undo.code).toBe(0);
  expect(undo.stdout).toContain("code of 1 turn undone: 3 files put back");
  expect(undo.stdout).toContain("reached the network: curl -s http://127.0.0.1:9/");
  expect(await readFile(w.path("a.txt"), "utf8")).toBe("before\n");
  expect(await readFile(w.path("gone.txt"), "utf8")).toBe("keep me\n");
  expect(existsSync(w.path("new.txt"))).toBe(false);

  const again = await w.run(["undo", "-c", "--code"]);
  expect(again.code).toBe(1);
  expect(again.stderr).toBe("rein: this session has no checkpoint left to undo (no turn of it changed the workspace)\n");

  const redo = await w.run(["redo", "-c"]);
  expect(redo.code).toBe(0);
  expect(await readFile(w.path("a.txt"), "utf8")).toBe("after\n");
  expect(existsSync(w.path("gone.txt"))).toBe(false);
});

test.concurrent("undo refuses to overwrite a file changed after the turn and names it; --force overwrites", async () => {
  await using w = await world();
  await writeFile(w.path("a.txt"), "before\n");
  w.fake.script({ reply: [bash("echo after > a.txt")] }, { reply: [text("changed")] });
  expect((await w.run(["-p", "change it", "--permission-mode", "auto"])).code).toBe(0);
  await writeFile(w.path("a.txt"), "mine\n");

  const refused = await w.run(["undo"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toBe("rein: a file was changed after the turn left it; undo would overwrite that (run again with --force to overwrite):\n  a.txt\n");
  expect(await readFile(w.path("a.txt"), "utf8")).toBe("mine\n");

  const forced = await w.run(["undo", "--force", "--json"]);
  expect(forced.code).toBe(0);
  expect(JSON.parse(forced.stdout)).toMatchObject({ type: "done", messages: 4, prompt: "change it", code: { files: ["a.txt"] } });
  expect(await readFile(w.path("a.txt"), "utf8")).toBe("before\n");

  // The conversation was cut back too: the next run sends only its own prompt.
  w.fake.script({ reply: [text("fresh")] });
  expect((await w.run(["-c", "-p", "next"])).code).toBe(0);
  expect(messagesOf(w.fake.requests.at(-1)).map((m) => m.role)).toEqual(["user"]);
});

test.concurrent("bad input to undo is a usage error with one line", async () => {
  await using w = await world();
  const none = await w.run(["undo"]);
  expect(none.code).toBe(2);
  expect(none.stderr).toBe(`rein: no session in ${w.cwd} (name one with -r ID; see rein sessions list)\n`);
  const both = await w.run(["undo", "--code", "--conversation"]);
  expect(both.code).toBe(2);
  const turns = await w.run(["undo", "--turns", "0"]);
  expect(turns.stderr).toBe('rein: --turns expects a positive integer, got "0"\n');
  const misplaced = await w.run(["sessions", "list", "--force"]);
  expect(misplaced.code).toBe(2);
});

test.concurrent("two rein undo at once after four edit turns undo two turns, each a different one", async () => {
  await using w = await world();
  for (let i = 1; i <= 4; i++) {
    w.fake.script({ reply: [bash(`echo ${i} > f${i}.txt`)] }, { reply: [text(`turn ${i}`)] });
    const run = await w.run(i === 1 ? ["-p", `turn ${i}`, "--permission-mode", "auto"] : ["-c", "-p", `turn ${i}`, "--permission-mode", "auto"]);
    expect(run.code).toBe(0);
  }
  const [a, b] = await Promise.all([w.run(["undo", "-c"]), w.run(["undo", "-c"])]);
  expect([a.code, b.code]).toEqual([0, 0]);
  const undone = [a.stdout, b.stdout].map((out) => /turn (\d)/.exec(out)?.[1]).sort();
  expect(undone).toEqual(["3", "4"]);
  expect([1, 2, 3, 4].map((i) => existsSync(w.path(`f${i}.txt`)))).toEqual([true, true, false, false]);
}, 30_000);
