// `--input-format stream-json`'s turns read from a real stdin (bash pipes printf into a child that
// runs runTurns on a real Session against the fake model): every user line is a prompt of the same
// session in order, a last line without its newline counts, a bad line is named by number and
// skipped, a failed run stops the rest, and a stdin with no user message is a usage error.
import { afterAll, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { tempDir } from "../../support/temp-dir.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const dir = tempDir("rein-turns-");
afterAll(() => dir.remove());

const CHILD = `
import { runTurns } from ${JSON.stringify(join(ROOT, "src/cli/claude-input.ts"))};
import { startKit } from ${JSON.stringify(join(ROOT, "test/support/session-kit.ts"))};
const kit = await startKit();
const steps = JSON.parse(process.env.STEPS ?? "[]");
kit.fake.script(...steps);
const { session } = kit.create();
const warnings = [];
let outcome;
try {
  const last = await runTurns(session, (line) => warnings.push(line));
  outcome = { status: last.status, text: last.text };
} catch (error) {
  outcome = { thrown: error.constructor.name, message: error.message };
}
const prompts = kit.fake.requests.map((r) => r.body.messages.filter((m) => m.role === "user" && typeof m.content !== "string").flatMap((m) => m.content.filter((b) => b.type === "text").map((b) => b.text)).at(-1));
console.log(JSON.stringify({ outcome, warnings, prompts, requests: kit.fake.requests.length }));
await kit.close();
`;

async function turns(stdin: string, steps: unknown[]): Promise<{ outcome: Record<string, unknown>; warnings: string[]; prompts: string[]; requests: number }> {
  const script = join(dir.path, "child.ts");
  await Bun.write(script, CHILD);
  const input = join(dir.path, `stdin-${Math.random().toString(36).slice(2)}`);
  await Bun.write(input, stdin);
  const proc = Bun.spawn(["bash", "-c", `cat '${input}' | '${process.execPath}' '${script}'`], { cwd: ROOT, env: { ...process.env, STEPS: JSON.stringify(steps) }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (!stdout.trim()) throw new Error(`the child printed nothing: ${stderr}`);
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}
const user = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content } });
const say = (text: string) => ({ reply: [{ type: "text", text }] });

test("each user line is a turn of the same session, in order; the last line needs no newline", async () => {
  const r = await turns(`${user("first")}\n\n${user([{ type: "text", text: "second" }])}\n${user("third")}`, [say("one"), say("two"), say("three")]);
  expect(r.outcome).toEqual({ status: "success", text: "three" });
  expect(r.requests).toBe(3);
  expect(r.prompts).toEqual(["first", "second", "third"]);
  expect(r.warnings).toEqual([]);
});

test("a line that is not a user message is named by its number and skipped; the others run", async () => {
  const r = await turns(`not json\n${user("real")}\n${JSON.stringify({ type: "assistant", message: { content: "x" } })}\n${user([{ type: "image" }])}\n`, [say("ok")]);
  expect(r.outcome).toEqual({ status: "success", text: "ok" });
  expect(r.requests).toBe(1);
  expect(r.warnings).toHaveLength(3);
  expect(r.warnings[0]).toBe("stdin line 1: not JSON; skipped");
  expect(r.warnings[1]).toStartWith('stdin line 3: not a user message (expected {"type":"user","message":{"role":"user","content":...}}): ');
  expect(r.warnings[2]).toBe("stdin line 4: the message has no text; skipped");
});

test("a run that fails ends the turns: the lines after it are not sent", async () => {
  const r = await turns(`${user("one")}\n${user("two")}\n${user("three")}\n`, [say("fine"), { error: 400 }]);
  expect(r.outcome.status).toBe("error");
  expect(r.requests).toBe(2);
});

test("no user message on stdin is a usage error saying what a line looks like", async () => {
  const r = await turns("\n\nnot json\n", []);
  expect(r.outcome).toEqual({
    thrown: "UsageError",
    message: '--input-format stream-json read no user message on stdin (one JSON line each: {"type":"user","message":{"role":"user","content":"..."}})',
  });
  expect(r.warnings).toEqual(["stdin line 3: not JSON; skipped"]);
});
