// Tool files whose import never finishes, loaded by the real registry from real files: each is
// reported and skipped, the others load, and rein's own thread never runs the hanging import.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolRegistry } from "../../../src/registry/registry.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir | undefined;
afterEach(() => dir?.remove());

const GOOD = (name: string) => `import * as v from "valibot";
import { defineTool } from "rein/tool";
export default defineTool({ name: "${name}", description: "loads", input: v.object({}), run: () => "ok" });
`;

test("a busy loop and a wait that never ends at the top level are reported; the files around them load", async () => {
  dir = tempDir("rein-import-check-");
  writeFileSync(join(dir.path, "a-good.ts"), GOOD("first"));
  writeFileSync(join(dir.path, "b-spin.ts"), "while (true) {}\n");
  writeFileSync(join(dir.path, "c-wait.ts"), "await new Promise(() => {});\nexport default {};\n");
  writeFileSync(join(dir.path, "d-good.ts"), GOOD("last"));
  const registry = new ToolRegistry([], [{ dir: dir.path, source: "user" }], undefined, 1000);
  const { tools, errors } = await registry.list();
  expect(tools.map((t) => t.tool.name)).toEqual(["first", "last"]);
  expect(errors.map((e) => e.file)).toEqual([join(dir.path, "b-spin.ts"), join(dir.path, "c-wait.ts")]);
  expect(errors[0]!.reason).toContain("importing it did not finish within 1 s, so it was not loaded");
});

test("a tool file that starts to hang after it loaded, or whose helper does, is reported on reload and not imported", async () => {
  dir = tempDir("rein-import-check-");
  mkdirSync(join(dir.path, "lib"));
  writeFileSync(join(dir.path, "lib", "helper.ts"), "export const n = 1;\n");
  writeFileSync(join(dir.path, "a-tool.ts"), GOOD("first"));
  writeFileSync(join(dir.path, "b-tool.ts"), `import { n } from "./lib/helper.ts";\n${GOOD("second").replace('"ok"', "String(n)")}`);
  const registry = new ToolRegistry([], [{ dir: dir.path, source: "user" }], undefined, 1000);
  expect((await registry.list()).tools.map((t) => t.tool.name)).toEqual(["first", "second"]);

  writeFileSync(join(dir.path, "a-tool.ts"), "while (true) {}\n");
  let listed = await registry.list();
  expect(listed.tools.map((t) => t.tool.name)).toEqual(["second"]);
  expect(listed.errors.map((e) => e.file)).toEqual([join(dir.path, "a-tool.ts")]);

  writeFileSync(join(dir.path, "a-tool.ts"), GOOD("first"));
  writeFileSync(join(dir.path, "lib", "helper.ts"), "while (true) {}\nexport const n = 2;\n");
  listed = await registry.list();
  expect(listed.tools.map((t) => t.tool.name)).toEqual(["first"]);
  expect(listed.errors.map((e) => e.file)).toEqual([join(dir.path, "b-tool.ts")]);
});
