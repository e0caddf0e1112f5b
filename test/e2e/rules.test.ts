// Rules as users type them: a misspelled permission stops rein before it runs anything (exit 2),
// a name that may be a tool of the user's runs with a warning, and the saved form of an awkward
// approval loads at the next start.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { text, world } from "./harness.ts";

test.concurrent("a misspelled permission in a flag is a usage error naming the closest one, before any request", async () => {
  await using w = await world();
  const r = await w.run(["-p", "hi", "--deny", "bsah(rm *)"]);
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain('--deny "bsah(rm *)": unknown permission "bsah" (did you mean "bash"? known permissions: bash, read, edit');
  expect(w.fake.requests).toHaveLength(0);
});

test.concurrent("a permission that may be a user or MCP tool's runs; only one no loaded tool has is warned about; saved awkward rules load", async () => {
  await using w = await world();
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ permissions: { allow: ["myTool", "bash(rm 'x)')", "bash(cat a (1)/b)"] } }));
  await mkdir(join(w.configDir, "tools"), { recursive: true });
  await writeFile(
    join(w.configDir, "tools", "my-tool.ts"),
    'import * as v from "valibot";\nimport { defineTool } from "rein/tool";\nexport default defineTool({ name: "myTool", description: "says ok", input: v.object({}), run: async () => "ok" });\n',
  );
  w.fake.script({ reply: [text("ok")] });
  const r = await w.run(["-p", "hi", "--ask", "mcp__github__create_issue"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("ok\n");
  expect(r.stderr).toContain('"mcp__github__create_issue" is none of rein\'s permissions (bash, read, edit, external_directory, webfetch, websearch) and no loaded tool has that name');
  expect(r.stderr).not.toContain('"myTool"');

  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ permissions: { allow: ["myTool"], ask: ["mcp__github__create_issue"] } }));
  const doctor = await w.run(["doctor"]);
  expect(doctor.stdout).toContain(`FAIL rules         ${join(w.configDir, "config.json")}: "mcp__github__create_issue" is none`);
  expect(doctor.stdout).not.toContain('"myTool"');
});

test.concurrent("permissions explain says when a line is allowed as read-only, and not when a rule allowed it", async () => {
  await using w = await world();
  const read = JSON.parse((await w.run(["permissions", "explain", "--json", "--", "ls"])).stdout) as { decision: string; read_only: boolean };
  expect(read).toMatchObject({ decision: "allow", read_only: true });
  const ruled = JSON.parse((await w.run(["permissions", "explain", "--json", "--allow", "bash(ls *)", "--", "ls"])).stdout) as { read_only: boolean };
  expect(ruled.read_only).toBe(false);
  expect((await w.run(["permissions", "explain", "--", "ls"])).stdout).toContain("(allowed as read-only by the analysis");
});
