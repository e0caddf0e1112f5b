// memory.auto through the compiled binary in print mode: after the run's result one more model
// call proposes facts, which are saved and listed by `rein memory list`; a failing or hanging call
// is one warning line, and stdout and the exit code are the run's.
import { expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { text, world } from "./harness.ts";

const facts = JSON.stringify({ memories: [{ name: "Test runner", description: "bun test, never jest", type: "project", text: "The tests run with bun test; never jest." }] });

test.concurrent("with memory.auto on, a print run ends with one extraction call whose facts are saved", async () => {
  await using w = await world();
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ memory: { auto: true } }));
  w.fake.script({ reply: [text("Use bun test.")] }, { reply: [text(facts)] });

  const r = await w.runStream(["-p", "how do I run the tests? we never use jest"]);

  expect(r.code).toBe(0);
  expect(r.events.at(-1)).toMatchObject({ type: "result", status: "success", text: "Use bun test." });
  expect(w.fake.requests).toHaveLength(2);
  expect(JSON.stringify(w.fake.requests[1]!.body.messages)).toContain("User: how do I run the tests? we never use jest");
  expect(r.stderr).toContain("rein: memory.auto remembered 1 fact from this session: Test runner (rein memory list)");
  const listed = await w.run(["memory", "list"]);
  expect(listed.stdout).toContain("Test runner");
});

test.concurrent("memory.auto never fails a run: a provider error and a hang are one warning line each, the exit code stays", async () => {
  await using w = await world();
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ memory: { auto: true } }));
  w.fake.script({ reply: [text("Fine.")] }, { error: 400 });
  const failed = await w.run(["-p", "hi"]);
  expect(failed.code).toBe(0);
  expect(failed.stdout).toBe("Fine.\n");
  const lines = failed.stderr.split("\n").filter((line) => line.includes("memory.auto"));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("rein: memory.auto kept nothing from this session: ");

  w.fake.script({ reply: [text("Still fine.")] }, { hang: true });
  const hung = await w.run(["-p", "hi", "--max-turns", "1"], { env: { REIN_MEMORY_AUTO_TIMEOUT_MS: "500" } });
  expect(hung.code).toBe(0);
  expect(hung.stdout).toBe("Still fine.\n");
  expect(hung.stderr).toContain("rein: memory.auto kept nothing from this session: no answer within 0.5 s");
  expect((await w.run(["memory", "list"])).stdout).not.toContain("Test runner");
});

test.concurrent("memory.auto is off by default: one call, nothing saved", async () => {
  await using w = await world();
  w.fake.script({ reply: [text("Hello.")] });
  const r = await w.run(["-p", "hi"]);
  expect(r.code).toBe(0);
  expect(w.fake.requests).toHaveLength(1);
  expect(r.stderr).not.toContain("memory.auto");
});

test.concurrent("rein memory list with the memory folder being a file says so in one line and exits 1, not 'no memories yet'", async () => {
  await using w = await world();
  await writeFile(join(w.dataDir, "memory"), "a file");
  const r = await w.run(["memory", "list"]);
  expect(r.code).toBe(1);
  expect(r.stdout).not.toContain("no memories yet");
  const lines = r.stderr.trim().split("\n");
  expect(lines).toHaveLength(2);
  for (const line of lines) expect(line).toMatch(new RegExp(`^rein: the memory folder .* cannot be used: ${join(w.dataDir, "memory").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is a file, not a folder; move or remove that file`));
});
