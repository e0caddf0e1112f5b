// Sessions the provider would refuse for good are never made, through the compiled binary against a
// fake that checks each request as the Messages API does: whitespace streamed before SIGINT or
// SIGKILL is not kept, and a corrupt PNG the model reads becomes an error result, not an image.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { text, world } from "./harness.ts";

for (const signal of ["SIGINT", "SIGKILL"] as const) {
  test.concurrent(`only whitespace streamed before ${signal}: the next rein -c -p is accepted`, async () => {
    await using w = await world({ strict: true });
    w.fake.script({ hang: true, afterText: " \n  " });
    const cut = w.start(["-p", "think about it", "--output-format", "stream-json"]);
    await cut.waitForEvent("text_delta");
    cut.kill(signal);
    expect((await cut.exited).code).toBe(signal === "SIGINT" ? 130 : 137);
    w.fake.script({ reply: [text("Here I am.")] });

    const next = await w.run(["-c", "-p", "go on"]);

    expect(next).toMatchObject({ code: 0, stdout: "Here I am.\n" });
  });
}

test.concurrent("a corrupt PNG read by the model: an error result the model reads, and the session goes on", async () => {
  await using w = await world({ strict: true });
  const png = readFileSync(join(import.meta.dir, "../fixtures/images/red.png"));
  writeFileSync(w.path("chart.png"), png.subarray(0, 50));
  w.fake.script({ reply: [{ type: "tool_use", name: "read", input: { path: "chart.png" } }] }, { reply: [text("The chart is broken.")] });

  const r = await w.run(["-p", "what does chart.png show?"]);

  expect(r).toMatchObject({ code: 0, stdout: "The chart is broken.\n" });
  expect(JSON.stringify(w.fake.requests[1]!.body.messages.at(-1))).toContain("is not a usable image/png image");
  w.fake.script({ reply: [text("Still here.")] });
  expect((await w.run(["-c", "-p", "and now?"])).code).toBe(0);
});
