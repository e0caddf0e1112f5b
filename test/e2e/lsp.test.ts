// Language servers through the compiled binary: the real typescript-language-server from npm on a
// scratch TypeScript project, its errors in the next request to the fake model after a write that
// breaks a type, nothing after a clean one, definitions and references through the lsp tool; a
// server that is not installed, one that never answers, and a session that touches no TypeScript.
import { expect, test } from "bun:test";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { pidsMatching, resultText, ROOT, text, toolResultsOf, waitFor, world, type World } from "./harness.ts";

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
/** The result of the call the model made last before request `n`. */
const lastResult = (w: World, n: number) => resultText(toolResultsOf(w.fake.requests[n]).at(-1));
const SERVER = join(ROOT, "node_modules/.bin/typescript-language-server");
const typescript = { command: SERVER, args: ["--stdio"], extensionToLanguage: { ".ts": "typescript" } };
// A cold tsserver takes seconds to load a project on a busy machine: the tests allow it more than the default.
const SLOW = { env: { REIN_LSP_WAIT_MS: "40000" }, timeoutMs: 90_000 };

async function project(w: World, lsp: Record<string, unknown>): Promise<void> {
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ lsp, permissions: { allow: ["edit", "read"] } }));
  await Bun.write(w.path("tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" }, include: ["src"] }));
  await Bun.write(w.path("src/util.ts"), "export function add(a: number, b: number): number {\n  return a + b;\n}\n");
  // typescript-language-server runs the workspace's TypeScript (5.x; rein's own dev TypeScript is the native 7).
  await mkdir(w.path("node_modules"), { recursive: true });
  await symlink(join(ROOT, "node_modules/typescript-5"), w.path("node_modules/typescript"));
}

test.concurrent("a write that breaks a type shows TypeScript's error in the next request; a clean one shows nothing; the lsp tool finds definitions and references", async () => {
  await using w = await world();
  await project(w, { typescript });
  w.fake.script(
    { reply: [use("write", { path: "src/bad.ts", content: 'import { add } from "./util";\nexport const s: string = add(1, 2);\n' })] },
    { reply: [use("write", { path: "src/good.ts", content: 'import { add } from "./util";\nexport const n: number = add(1, 2);\n' })] },
    { reply: [use("lsp", { operation: "definition", path: "src/good.ts", line: 2, character: 26 })] },
    { reply: [use("lsp", { operation: "references", path: "src/util.ts", line: 1, character: 17 })] },
    { reply: [text("done")] },
  );
  const r = await w.run(["-p", "go"], SLOW);
  expect(r.stderr).not.toMatch(/warning|error|language server/i);
  expect(r).toMatchObject({ code: 0, stdout: "done\n" });
  const broken = lastResult(w, 1);
  expect(broken).toContain("rein: the language server reports 1 error after this change:");
  expect(broken).toMatch(/src\/bad\.ts:2:14: error TS2322: Type 'number' is not assignable to type 'string'\./);
  const clean = lastResult(w, 2);
  expect(clean).not.toContain("language server");
  expect(lastResult(w, 3)).toBe("src/util.ts:1:17");
  const refs = lastResult(w, 4).split("\n");
  expect(refs).toContain("src/util.ts:1:17");
  expect(refs.some((line) => line.startsWith("src/good.ts:1:"))).toBe(true);
  expect(refs.some((line) => line.startsWith("src/bad.ts:2:"))).toBe(true);
  // The server and the tsserver it started end with rein.
  await waitFor(async () => (await pidsMatching("typescript-5/lib/tsserver")).length === 0 && (await pidsMatching(`${SERVER} --stdio`)).length === 0, "no language server process left", 10_000, 100);
}, 120_000);

test.concurrent("a server that is not installed is one note naming it; the write goes through", async () => {
  await using w = await world();
  await project(w, { typescript: { ...typescript, command: "no-such-language-server" } });
  w.fake.script({ reply: [use("write", { path: "src/x.ts", content: "export const x = 1;\n" })] }, { reply: [use("write", { path: "src/y.ts", content: "export const y = 1;\n" })] }, { reply: [text("ok")] });
  const r = await w.run(["-p", "go"], SLOW);
  expect(r).toMatchObject({ code: 0, stdout: "ok\n" });
  const first = lastResult(w, 1);
  expect(first).toContain('rein: the language server "typescript" is not running: no-such-language-server is not installed (not found on PATH)');
  // Said once per session, not after every edit.
  expect(lastResult(w, 2)).not.toContain("language server");
  expect(await Bun.file(w.path("src/y.ts")).text()).toBe("export const y = 1;\n");
}, 120_000);

test.concurrent("a server that never answers is bounded: the write's result comes back with a note and nothing is left running", async () => {
  await using w = await world();
  const marker = `sleep 4${Math.floor(Math.random() * 1000) + 1000}`;
  await project(w, { hangs: { command: "sh", args: ["-c", `${marker}; true`], extensionToLanguage: { ".ts": "typescript" } } });
  w.fake.script({ reply: [use("write", { path: "src/x.ts", content: "export const x = 1;\n" })] }, { reply: [text("ok")] });
  const r = await w.run(["-p", "go"], { env: { REIN_LSP_WAIT_MS: "1500" }, timeoutMs: 60_000 });
  expect(r).toMatchObject({ code: 0, stdout: "ok\n" });
  expect(lastResult(w, 1)).toContain('rein: the language server "hangs" is not running: it did not answer initialize within 1.5 s');
  await waitFor(async () => (await pidsMatching(marker)).length === 0, `no ${marker} left`, 10_000, 100);
}, 90_000);

test.concurrent("a session that touches no file of a configured language starts no server", async () => {
  await using w = await world();
  await project(w, { typescript });
  w.fake.script({ reply: [use("write", { path: "notes.md", content: "# notes\n" })] }, { reply: [text("ok")] });
  const r = await w.run(["-p", "go"], SLOW);
  expect(r).toMatchObject({ code: 0, stdout: "ok\n" });
  expect(lastResult(w, 1)).not.toContain("language server");
  expect(await Bun.file(join(w.dataDir, "lsp", "logs", "typescript.log")).exists()).toBe(false);
  const tools = (w.fake.requests[0]!.body as { tools: { name: string; description: string }[] }).tools;
  // The lsp tool is deferred: named in load_tools, not sent whole.
  expect(tools.find((t) => t.name === "load_tools")?.description).toContain("lsp");
}, 90_000);

test.concurrent("a bash command that changes an open file brings that file's new errors", async () => {
  await using w = await world();
  await project(w, { typescript });
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ lsp: { typescript }, permissions: { allow: ["edit", "read", "bash"] } }));
  w.fake.script(
    { reply: [use("write", { path: "src/a.ts", content: "export const a: number = 1;\n" })] },
    { reply: [use("bash", { command: "printf 'export const a: string = 1;\\n' > src/a.ts" })] },
    { reply: [use("bash", { command: "true" })] },
    { reply: [text("done")] },
  );
  const r = await w.run(["-p", "go"], SLOW);
  expect(r).toMatchObject({ code: 0, stdout: "done\n" });
  expect(lastResult(w, 1)).not.toContain("language server");
  expect(lastResult(w, 2)).toMatch(/src\/a\.ts:1:14: error TS2322: Type 'number' is not assignable to type 'string'\./);
  // A command that changed nothing a server has open adds nothing.
  expect(lastResult(w, 3)).not.toContain("language server");
}, 120_000);

test.concurrent("rein doctor says which configured servers start and which do not", async () => {
  await using w = await world();
  await project(w, { typescript, ghost: { command: "no-such-language-server", extensionToLanguage: { ".go": "go" } } });
  const r = await w.run(["doctor"], SLOW);
  expect(r.stdout).toMatch(/^ok {3}lsp typescript +starts \(typescript; .*typescript-language-server, from .*config\.json\)$/m);
  expect(r.stdout).toMatch(/^FAIL lsp ghost +no-such-language-server is not installed \(not found on PATH\)/m);
  await waitFor(async () => (await pidsMatching(`${SERVER} --stdio`)).length === 0, "doctor leaves no server running", 10_000, 100);
}, 120_000);

test.concurrent("rein doctor starts a server with the environment a session's tools get: secrets out by name and value, env.passthrough kept", async () => {
  await using w = await world();
  const dump = w.path("server-env.txt");
  const script = w.path("env-lsp.sh");
  await Bun.write(script, `#!/bin/sh\nenv > '${dump}'\nexec '${process.execPath}' '${join(ROOT, "test/fake/fake-lsp.ts")}' ok\n`);
  await Bun.$`chmod +x ${script}`;
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ lsp: { fake: { command: script, extensionToLanguage: { ".txt": "plaintext" } } }, env: { passthrough: ["DEPLOY_TOKEN"] } }));
  const r = await w.run(["doctor"], { ...SLOW, env: { ...SLOW.env, RELEASE_NOTE: "ghp_abcdefghijklmnopqrstuvwxyz0123456789", DEPLOY_TOKEN: "let-me-through", CLOUD_TOKEN: "not-for-servers", PLAIN_SETTING: "kept" } });
  expect(r.stdout).toMatch(/^ok {3}lsp fake +starts/m);
  const env = await Bun.file(dump).text();
  expect(env).toContain("PLAIN_SETTING=kept");
  expect(env).toContain("DEPLOY_TOKEN=let-me-through");
  expect(env).not.toContain("CLOUD_TOKEN");
  expect(env).not.toContain("ghp_abcdefghij");
}, 120_000);
