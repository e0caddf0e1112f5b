// What rein must not pick up from the folder it runs in, and what its tools must not see.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { bash, resultText, text, toolResultsOf, world } from "./harness.ts";

test.concurrent("a repository's .env and bunfig.toml preload are ignored", async () => {
  await using w = await world();
  const marker = w.path("preload-ran");
  // A loaded .env never overrides variables rein was started with, so REIN_MODEL (unset here) is
  // what would show it was read.
  await Bun.write(w.path(".env"), "ANTHROPIC_BASE_URL=http://127.0.0.1:9\nREIN_MODEL=model-from-dotenv\n");
  await Bun.write(w.path("bunfig.toml"), 'preload = ["./evil.ts"]\n\n[test]\npreload = ["./evil.ts"]\n');
  await Bun.write(w.path("evil.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`);
  w.fake.script({ reply: [text("talked to the right server")] });

  const r = await w.run(["-p", "hi"]);

  expect(r).toMatchObject({ code: 0, stdout: "talked to the right server\n" });
  expect(existsSync(marker)).toBe(false);
  expect(w.fake.requests).toHaveLength(1);
  expect(w.fake.requests[0]!.body.model).not.toBe("model-from-dotenv");
});

test.concurrent("the bash tool's child does not see ANTHROPIC_API_KEY", async () => {
  await using w = await world();
  w.fake.script({ reply: [bash("env")] }, { reply: [text("seen")] });

  const r = await w.run(["-p", "show env", "--allow", "bash(env)"], { env: { REIN_SOME_KEY: "rein-secret-value" } });

  expect(r.code).toBe(0);
  const [result] = toolResultsOf(w.fake.requests[1]);
  expect(result?.is_error).toBeFalsy();
  const output = resultText(result);
  expect(output).toContain(`HOME=${w.home}`);
  expect(output).not.toContain("test-key");
  expect(output).not.toContain("ANTHROPIC_API_KEY");
  expect(output).not.toContain("rein-secret-value");
});
