// Configuration errors stop rein before it talks to the provider: exit 2, naming the file and key.
import { expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { world } from "./harness.ts";

const broken: [string, string, string | undefined][] = [
  ["invalid JSON", '{ "model": "x", }', undefined],
  ["a value of the wrong type", '{ "maxTurns": "ten" }', "maxTurns"],
  ["an unknown key", '{ "colour": "red" }', "colour"],
];

for (const [what, content, key] of broken) {
  test.concurrent(`user config.json with ${what}: exit 2 naming the file${key ? " and the key" : ""}`, async () => {
    await using w = await world();
    const file = join(w.configDir, "config.json");
    await Bun.write(file, content);

    const r = await w.run(["-p", "hi"]);

    expect(r.code).toBe(2);
    expect(r.stderr).toContain(file);
    if (key) expect(r.stderr).toContain(`"${key}"`);
    else expect(r.stderr).toMatch(/line 1, column \d+/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(w.fake.requests).toHaveLength(0);
  });
}

test.concurrent('a project .rein/config.json with "apiKey": exit 2', async () => {
  await using w = await world();
  await mkdir(w.path(".rein"));
  const file = w.path(".rein", "config.json");
  await Bun.write(file, JSON.stringify({ apiKey: "sk-from-the-repo" }));

  const r = await w.run(["-p", "hi"]);

  expect(r.code).toBe(2);
  expect(r.stderr).toContain(file);
  expect(r.stderr).toContain('"apiKey"');
  expect(r.stderr).not.toContain("sk-from-the-repo");
  expect(w.fake.requests).toHaveLength(0);
});
