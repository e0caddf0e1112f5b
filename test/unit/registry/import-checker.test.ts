// The import checker (registry/import-check.ts) with its real worker: each tool file's import is
// tried in a worker first; a settled, unchanged file is not tried again; a hang replaces the worker
// and makes every file be tried again. Files append a line to a log each time they are imported,
// so the test sees which imports ran.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ImportChecker } from "../../../src/registry/import-check.ts";
import { ToolRegistry } from "../../../src/registry/registry.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

let dir: TempDir;
let log: string;
beforeEach(() => {
  dir = tempDir("rein-import-checker-");
  log = join(dir.path, "imports.log");
  writeFileSync(log, "");
});
afterEach(() => dir.remove());

/** A file that logs its own import, then (with `hang`) never finishes it. */
function counted(name: string, hang = false): string {
  const file = join(dir.path, `${name}.ts`);
  writeFileSync(file, `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(log)}, "${name}\\n");\n${hang ? "await new Promise(() => {});\n" : ""}export default {};\n`);
  return file;
}

const imported = () => readFileSync(log, "utf8").split("\n").filter(Boolean);

test("a settled file is not imported again while it and its helpers are unchanged", async () => {
  const checker = new ImportChecker(5_000);
  const a = counted("a");
  const b = counted("b");
  expect(await checker.check([a, b], "helpers-1")).toEqual({ hung: new Set(), checked: true });
  expect(imported()).toEqual(["a", "b"]);
  await checker.check([a, b], "helpers-1");
  expect(imported()).toEqual(["a", "b"]);
  // a helper beside them changed: both may import it, both are tried again
  await checker.check([a, b], "helpers-2");
  expect(imported()).toEqual(["a", "b", "a", "b"]);
  // one file changed: only that one
  writeFileSync(b, `${readFileSync(b, "utf8")}// edited\n`);
  await checker.check([a, b], "helpers-2");
  expect(imported()).toEqual(["a", "b", "a", "b", "b"]);
});

test("a hang is reported, the worker is replaced for the files after it, and the unchanged files are tried again", async () => {
  const checker = new ImportChecker(500);
  const a = counted("a");
  const c = counted("c");
  await checker.check([a, c], "h");
  expect(imported()).toEqual(["a", "c"]);
  const b = counted("b", true);
  const result = await checker.check([a, b, c], "h");
  expect(result).toEqual({ hung: new Set([b]), checked: true });
  // b hung in the first worker; a and c (unchanged) were tried again in a fresh one, as they might import b
  expect(imported().slice(2).sort()).toEqual(["a", "b", "c"]);
  // the hanging file is tried every time: it never counts as settled
  expect((await checker.check([a, b, c], "h")).hung).toEqual(new Set([b]));
});

test("REIN_TOOL_IMPORT_TIMEOUT_MS bounds the import of a registry made without a timeout of its own", async () => {
  const before = process.env.REIN_TOOL_IMPORT_TIMEOUT_MS;
  process.env.REIN_TOOL_IMPORT_TIMEOUT_MS = "400";
  try {
    const hanging = counted("slow", true);
    const registry = new ToolRegistry([], [{ dir: dir.path, source: "user" }]);
    const { errors } = await registry.list();
    expect(errors).toEqual([{ file: hanging, reason: expect.stringContaining("importing it did not finish within 0.4 s") }]);
  } finally {
    if (before === undefined) delete process.env.REIN_TOOL_IMPORT_TIMEOUT_MS;
    else process.env.REIN_TOOL_IMPORT_TIMEOUT_MS = before;
  }
});

// Taken as given, -3 ms would end every check at once and report the good file as hung.
test("a timeout that is not a positive whole number falls back to the default", async () => {
  const before = process.env.REIN_TOOL_IMPORT_TIMEOUT_MS;
  process.env.REIN_TOOL_IMPORT_TIMEOUT_MS = "-3";
  try {
    const file = join(dir.path, "fine.ts");
    writeFileSync(file, `import * as v from "valibot";\nexport default { name: "fine", description: "d", input: v.object({}), run: () => "" };\n`);
    const { tools, errors } = await new ToolRegistry([], [{ dir: dir.path, source: "user" }]).list();
    expect(errors).toEqual([]);
    expect(tools.map((t) => t.tool.name)).toEqual(["fine"]);
  } finally {
    if (before === undefined) delete process.env.REIN_TOOL_IMPORT_TIMEOUT_MS;
    else process.env.REIN_TOOL_IMPORT_TIMEOUT_MS = before;
  }
});
