// What a session cost, through the compiled binary: `rein sessions show` counts the model turns of a
// run killed before its result, and of a run that failed, with those of finished runs.
import { expect, test } from "bun:test";
import { text, world } from "./harness.ts";

const usage = { input_tokens: 1000, output_tokens: 100 };

test.concurrent("sessions show counts a killed run's turns and a failed run's, and says which run had no result", async () => {
  await using w = await world();
  w.fake.script({ reply: [{ type: "tool_use", name: "bash", input: { command: "sleep 30" } }], usage });
  const killed = w.start(["-m", "claude-sonnet-5-5", "-p", "wait a while", "--allow", "bash", "--output-format", "stream-json"]);
  await killed.waitForEvent("tool_start");
  killed.kill("SIGKILL");
  await killed.exited;
  // a run that fails after one turn: its second call is refused
  w.fake.script({ reply: [{ type: "tool_use", name: "read", input: { path: "missing.txt" } }], usage }, { error: 400 });
  expect((await w.run(["-m", "claude-sonnet-5-5", "-c", "-p", "go on"])).code).toBe(1);
  w.fake.script({ reply: [text("Done.")], usage });
  const last = await w.run(["-m", "claude-sonnet-5-5", "-c", "-p", "finish", "--output-format", "json"]);
  expect(last.code).toBe(0);

  const shown = await w.run(["sessions", "show", JSON.parse(last.stdout).session_id]);

  // three turns of 1000 in / 100 out at $2 / $10 per million: $0.003 each
  expect(shown.stdout).toContain("3 runs (1 without a result: killed, or still running) · tokens: in 3000 (cache read 0, write 0) · out 300 · $0.0090");
}, 60_000);
