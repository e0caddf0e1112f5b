// Print mode's progress on stderr, from a real Session's events in a child process (the fake model,
// a real tool, a rule that denies): one `›` line per call with its argument, a call a rule denied
// named with the rule's reason, a retry with its wait and cause; the plumbing and the answer stay off.
import { afterAll, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { tempDir } from "../../support/temp-dir.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const dir = tempDir("rein-stderr-");
afterAll(() => dir.remove());

const CHILD = `
import { stderrRenderer } from ${JSON.stringify(join(ROOT, "src/cli/stderr-renderer.ts"))};
import { warn } from ${JSON.stringify(join(ROOT, "src/app/output.ts"))};
import { defineJsonTool } from ${JSON.stringify(join(ROOT, "src/sdk.ts"))};
import { startKit } from ${JSON.stringify(join(ROOT, "test/support/session-kit.ts"))};
const kit = await startKit();
// a tool described by plain JSON Schema: the child needs no valibot of its own
const shout = defineJsonTool({
  name: "shout",
  description: "Says it loudly",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  permissions: ({ text }) => [{ permission: "shout", pattern: String(text), always: [String(text)] }],
  run: ({ text }) => String(text).toUpperCase(),
});
const rules = [{ permission: "*", pattern: "*", action: "allow" }, { permission: "shout", pattern: "secret*", action: "deny", source: "user config" }];
const { session } = kit.create({ rules, tools: [shout] });
session.subscribe(stderrRenderer(warn, kit.dir.path));
kit.fake.script(
  { error: 529 },
  { reply: [{ type: "tool_use", name: "shout", input: { text: "hello there" } }] },
  { reply: [{ type: "tool_use", name: "shout", input: { text: "secret plan" } }] },
  { reply: [{ type: "text", text: "THE ANSWER" }] },
);
await session.prompt("shout");
await kit.close();
`;

test("a call, a denied call and a retry, one line each; the answer is not on stderr", async () => {
  const script = join(dir.path, "child.ts");
  await Bun.write(script, CHILD);
  const proc = Bun.spawn([process.execPath, script], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect([code, stderr.includes("error:") ? stderr : ""]).toEqual([0, ""]);
  expect(stdout).toBe("");
  const lines = stderr.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^rein: retrying in \d+\.\ds \(attempt 1 failed: .+\)$/);
  expect(lines.slice(1)).toEqual(["› shout hello there", "› shout secret plan", expect.stringMatching(/^rein: denied shout: .*user config/)]);
  expect(stderr).not.toContain("THE ANSWER");
  expect(stderr).not.toContain("Do not try");
});
