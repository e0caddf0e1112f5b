// `rein checkpoints` from source in a real process, over the checkpoints a real Session took of the
// files its turns wrote (the write tool, the fake model): the list with what each turn changed, a
// turn's diff, restoring one (and the refusal when a file changed since), the JSON and the usage lines.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Session } from "../../../src/session/session.ts";
import write from "../../../tools/write.ts";
import { startKit, type Kit } from "../../support/session-kit.ts";

const MAIN = resolve(import.meta.dir, "../../../src/main.ts");
let kit: Kit;
let cwd: string;
let session: Session;
let quiet: Session;
beforeAll(async () => {
  kit = await startKit();
  cwd = join(kit.dir.path, "workspace");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  const options = { ...kit.options({ tools: [write] }), checkpoints: { dir: join(kit.dir.path, "checkpoints") } };
  session = Session.create(cwd, options);
  const writes = (...files: [string, string][]) =>
    kit.fake.script({ reply: files.map(([path, content]) => ({ type: "tool_use" as const, name: "write", input: { path, content } })) }, { reply: [{ type: "text", text: "written" }] });
  writes(["a.txt", "alpha\n"], ["b.txt", "beta\n"]);
  await session.prompt("write a and b");
  writes(["a.txt", "alpha two\n"]);
  await session.prompt("change a");
  quiet = Session.create(cwd, options);
  kit.fake.script({ reply: [{ type: "text", text: "nothing to change" }] });
  await quiet.prompt("just talk");
});
afterAll(() => kit.close());

async function checkpoints(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? "", HOME: kit.dir.path, REIN_CONFIG_DIR: join(kit.dir.path, "config"), REIN_DATA_DIR: kit.dir.path };
  const proc = Bun.spawn([process.execPath, MAIN, "checkpoints", ...argv], { cwd, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

test("list: each turn that changed the workspace, with its files; a session that changed nothing says so", async () => {
  const r = await checkpoints("list", "-r", session.id);
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^1 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}2 files changed$/);
  expect(lines.slice(1, 3).sort()).toEqual(["    added a.txt", "    added b.txt"]);
  expect(lines[3]).toMatch(/^2 {2}.* {2}1 file changed$/);
  expect(lines[4]).toBe("    modified a.txt");
  const json = JSON.parse((await checkpoints("list", "-r", session.id, "--json")).stdout) as { n: number }[];
  expect(json.map((c) => c.n)).toEqual([1, 2]);
  expect((await checkpoints("list", "-r", quiet.id)).stdout).toBe("no checkpoints in this session (no turn of it changed the workspace)\n");
});

test("diff N: what that turn changed, as a patch", async () => {
  const r = await checkpoints("diff", "2", "-r", session.id);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("a.txt");
  expect(r.stdout).toContain("-alpha\n+alpha two\n");
  expect(r.stdout).not.toContain("b.txt");
});

test("a number that is not a checkpoint, or none, is a usage error naming the session", async () => {
  expect(await checkpoints("diff", "9", "-r", session.id)).toMatchObject({ code: 2, stderr: `rein: session ${session.id} has no checkpoint 9 (see rein checkpoints list)\n` });
  expect(await checkpoints("restore", "-r", session.id)).toMatchObject({ code: 2, stderr: "rein: rein checkpoints restore needs a checkpoint number (see rein checkpoints list)\n" });
  expect(await checkpoints("show", "1")).toMatchObject({ code: 2, stderr: 'rein: unknown action "show" (rein checkpoints list | diff N | restore N [--force])\n' });
});

test("restore: a file changed since is refused (exit 1) unless forced; forced, the workspace is as before that turn", async () => {
  writeFileSync(join(cwd, "b.txt"), "edited by hand\n");
  const refused = await checkpoints("restore", "1", "-r", session.id);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toStartWith("rein: ");
  expect(refused.stderr).toContain("b.txt");
  expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("edited by hand\n");
  const forced = await checkpoints("restore", "1", "-r", session.id, "--force");
  expect(forced.code).toBe(0);
  expect(forced.stdout).toContain("put back");
  expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  expect(existsSync(join(cwd, "b.txt"))).toBe(false);
});
