// `rein tools init` writes types that let an editor type-check a tool file: a correct tool passes
// the TypeScript checker and a wrong one fails it.
import { expect, test } from "bun:test";
import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, world } from "./harness.ts";

const TSC = join(ROOT, "node_modules/.bin/tsc");

async function typecheck(dir: string): Promise<{ code: number; output: string }> {
  const proc = Bun.spawn([TSC, "--noEmit", "-p", dir], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, output: stdout + stderr };
}

test("rein tools init writes types under which a tool type-checks, and a wrong tool does not", async () => {
  await using w = await world();
  const r = await w.run(["tools", "init"]);
  expect(r.code).toBe(0);
  const dir = join(w.configDir, "tools");
  expect(r.stdout).toContain(join(dir, "rein-tool.d.ts"));
  // Stands in for `npm install --save-dev valibot` in the tools folder.
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));

  await Bun.write(
    join(dir, "count.ts"),
    `import * as v from "valibot";
import { defineTool } from "rein/tool";
export default defineTool({
  name: "count",
  description: "Counts the words of a text.",
  input: v.object({ text: v.string() }),
  readOnly: true,
  run: ({ text }, ctx) => ({ output: String(text.split(/\\s+/).length), metadata: { cwd: ctx.cwd } }),
});
`,
  );
  const good = await typecheck(dir);
  expect(good.output).toBe("");
  expect(good.code).toBe(0);

  await Bun.write(
    join(dir, "wrong.ts"),
    `import * as v from "valibot";
import { defineTool } from "rein/tool";
export default defineTool({
  name: "wrong",
  description: "Uses a field the schema does not have.",
  input: v.object({ text: v.string() }),
  run: ({ txt }) => txt,
});
`,
  );
  const bad = await typecheck(dir);
  expect(bad.code).not.toBe(0);
  expect(bad.output).toContain("wrong.ts");
  expect(bad.output).toContain("txt");
});
