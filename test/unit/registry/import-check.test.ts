// Tool files whose import never finishes, loaded by the real registry from real files: each is
// reported and skipped, the others load, and rein's own thread never runs the hanging import.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
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
