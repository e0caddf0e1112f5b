// Every example in README.md and docs/*.md runs as written: the tool files (with the helpers they
// import) load and answer the call the docs show, the config JSON is accepted, and each shell line
// that can run offline runs against the fake model and exits 0. The examples are read from the
// Markdown itself, so a changed example is tested as it now reads.
import { expect, test } from "bun:test";
import { mkdir, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { BINARY, ROOT, toolResultsOf, resultText, world, type World } from "./harness.ts";

type Block = { file: string; lang: string; code: string; after: string };

const DOCS = ["README.md", ...[...new Bun.Glob("docs/*.md").scanSync(ROOT)].sort()];

/** The fenced blocks of a Markdown file, each with the prose that follows it (up to the next block). */
async function blocks(file: string): Promise<Block[]> {
  const text = await Bun.file(join(ROOT, file)).text();
  const found: Block[] = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    const end = fence.lastIndex;
    const next = text.indexOf("\n```", end);
    found.push({ file, lang: m[1] ?? "", code: m[2] ?? "", after: text.slice(end, next < 0 ? undefined : next) });
  }
  return found;
}

const all = (await Promise.all(DOCS.map(blocks))).flat();
const byLang = (lang: string) => all.filter((b) => b.lang === lang);

/** Where a file that names its own path in its first line (`// ~/.config/rein/tools/x.ts`) goes in the world. */
function placed(w: World, code: string): string | undefined {
  const path = /^\/\/ (\S+\.ts)\n/.exec(code)?.[1];
  if (!path) return undefined;
  if (path.startsWith("~/.config/rein/")) return join(w.configDir, path.slice("~/.config/rein/".length));
  if (path.startsWith(".rein/")) return w.path(path);
  throw new Error(`a doc example is placed at ${path}, which this test does not know how to map`);
}

test("the docs' TypeScript examples are placed files that load as tools and answer the calls the docs show", async () => {
  await using w = await world();
  const files = byLang("ts").map((b) => ({ ...b, target: placed(w, b.code) }));
  expect(files.length).toBeGreaterThanOrEqual(2);
  for (const f of files) {
    expect(f.target, `a ts block in ${f.file} does not say where it goes`).toBeDefined();
    await mkdir(dirname(f.target!), { recursive: true });
    await Bun.write(f.target!, f.code);
  }
  const listed = await w.run(["tools", "list"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout + listed.stderr).not.toMatch(/error|not loaded|failed/i);

  // "A call `{...}` on a `FILE` holding `TEXT` gives the model `OUTPUT`.", about the tool shown last before it.
  let tool: string | undefined;
  const claims = files.flatMap((f) => {
    tool = /name: "(\w+)"/.exec(f.code)?.[1] ?? tool;
    const claim = /A call `(\{.*?\})` on a `([^`]+)` holding `([^`]*)` gives the model `([^`]*)`/.exec(f.after);
    return tool && claim ? [{ name: tool, input: JSON.parse(claim[1]!), file: claim[2]!, content: claim[3]!, output: claim[4]! }] : [];
  });
  expect(claims.length).toBeGreaterThanOrEqual(1);
  for (const claim of claims) {
    expect(listed.stdout).toContain(claim.name);
    await Bun.write(w.path(claim.file), claim.content);
    w.fake.script({ reply: [{ type: "tool_use", name: claim.name, input: claim.input }] }, { reply: [{ type: "text", text: "done" }] });
    const r = await w.run(["-p", "use the tool"]);
    expect(r.code).toBe(0);
    const [result] = toolResultsOf(w.fake.requests.at(-1));
    expect(resultText(result)).toBe(claim.output);
  }
});

test("the docs' JSON config examples are accepted as a user config and as a project config", async () => {
  const configs = byLang("json");
  expect(configs.length).toBeGreaterThanOrEqual(1);
  for (const block of configs) {
    await using w = await world();
    await Bun.write(join(w.configDir, "config.json"), block.code);
    // A block the docs call "a user config only" must be refused as a project config, and works as the user's.
    if (/^\s*This is a user config only/.test(block.after)) {
      await Bun.write(w.path(".rein", "config.json"), block.code);
      const refused = await w.run(["-p", "hi", "--trust"]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("is not allowed in a project config");
      await Bun.write(w.path(".rein", "config.json"), "{}");
    } else await Bun.write(w.path(".rein", "config.json"), block.code);
    w.fake.script({ reply: [{ type: "text", text: "ok" }] });
    const r = await w.run(["-p", "hi", "--trust"]);
    // The examples' MCP servers are not installed here: their failure lines are not about the config.
    const notes = r.stderr.split("\n").filter((l) => l && !/^rein: MCP server "[^"]+" (failed|is not ready): /.test(l));
    expect(notes).toEqual([]);
    expect(r.code).toBe(0);
  }
});

/**
 * The shell lines of the docs' sh blocks, without their comments. A line runs unless it needs what
 * the test cannot give: the network, a terminal, a server that keeps running, or a placeholder
 * (ID, N, FOCUS, [optional], a | b choices) to be filled in; the install lines are tested on their own.
 */
function shellLines(): { line: string; skip?: string }[] {
  return byLang("sh").flatMap((b) =>
    b.code
      .split("\n")
      .map((raw) => raw.replace(/\s+#\s.*$/, "").trim())
      .filter((line) => line !== "")
      .map((line) => ({ line, ...skipReason(line) })),
  );
}

function skipReason(line: string): { skip?: string } {
  if (/\bcurl\b|npm install|npx /.test(line)) return { skip: "network or install (test/e2e/install.test.ts, .ci/run)" };
  if (/^rein( "[^"]*")?$/.test(line)) return { skip: "the interactive terminal (test/e2e/terminal*.test.ts)" };
  if (/--serve/.test(line)) return { skip: "a server that keeps running (test/e2e/server.test.ts)" };
  if (/mcp__everything__|@everything:/.test(line)) return { skip: "a configured MCP server (test/e2e/mcp.test.ts runs these)" };
  if (/\b(ID|N|FOCUS|USD|DIR|RULE)\b|\[|\| (show|rm|init|restore)/.test(line)) return { skip: "a placeholder to fill in" };
  if (/^bun run (test|bench|build --release|grammar)/.test(line)) return { skip: "the suite, the bench or a release build itself" };
  return {};
}

test("each shell line of the docs that can run offline runs against the fake model and exits 0", async () => {
  await using w = await world();
  const bin = join(w.root, "bin");
  await mkdir(bin, { recursive: true });
  await symlink(BINARY, join(bin, "rein"));
  await Bun.write(w.path("task.txt"), "say ok\n");
  w.fake.script(...Array.from({ length: 30 }, () => ({ reply: [{ type: "text" as const, text: "ok" }] })));
  const lines = shellLines();
  const runnable = lines.filter((l) => !l.skip);
  expect(runnable.length).toBeGreaterThanOrEqual(8);
  for (const { line } of runnable) {
    const proc = Bun.spawn(["sh", "-c", line], { cwd: w.cwd, env: w.env({ PATH: `${bin}:${process.env.PATH}` }), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect({ line, code, stderr: code === 0 ? "" : stderr }).toEqual({ line, code: 0, stderr: "" });
  }
}, 60_000);

test(".ci/run runs the README's test command verbatim, and both README commands need no root (npx, no npm install -g)", async () => {
  const readme = await Bun.file(join(ROOT, "README.md")).text();
  const command = (after: string) => new RegExp(`${after}[^\\n]*\\n\\n\`\`\`sh\\n([^\\n]+)\\n\`\`\``).exec(readme)?.[1];
  const build = command("Build rein and run it");
  const suite = command("Run the whole test suite");
  expect(build).toStartWith("npx --yes bun@");
  expect(suite).toStartWith("npx --yes bun@");
  expect(`${build} ${suite}`).not.toContain("npm install -g");
  expect(await Bun.file(join(ROOT, ".ci/run")).text()).toContain(`\n${suite}\n`);
});
