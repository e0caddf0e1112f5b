// A named pipe nobody writes, wherever rein reads a file on its own, is skipped with one warning:
// the run goes on, and SIGTERM still ends it. Each run is under `timeout -s TERM -k 2`: a run that
// does not stop within 2 s of SIGTERM is SIGKILLed and `timeout` exits 137.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { BINARY, lastUserText, messagesOf, text, toolResultsOf, waitFor, world, type World } from "./harness.ts";

async function fifo(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const made = Bun.spawn(["mkfifo", path]);
  expect(await made.exited).toBe(0);
}

/** rein under `timeout`: TERM after `seconds`, KILL 2 s later (then the exit code is 137). */
async function underTimeout(w: World, args: string[], seconds = 15): Promise<{ stdout: string; stderr: string; code: number }> {
  const proc = Bun.spawn(["timeout", "-s", "TERM", "-k", "2", String(seconds), BINARY, ...args], { cwd: w.cwd, env: w.env(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

/** The lines of stderr that name `path`. */
function linesNaming(stderr: string, path: string): string[] {
  return stderr.split("\n").filter((line) => line.includes(path));
}

/** `shownBy`: the command that lists the warning, when a run does not print it (skills, MCP servers). */
const cases: { name: string; setup: (w: World) => Promise<string>; args?: string[]; shownBy?: string[] }[] = [
  { name: "the project's AGENTS.md", setup: async (w) => (await fifo(w.path("AGENTS.md")), w.path("AGENTS.md")) },
  { name: "the project's CLAUDE.md", setup: async (w) => (await fifo(w.path("CLAUDE.md")), w.path("CLAUDE.md")) },
  { name: "the user's AGENTS.md", setup: async (w) => (await fifo(join(w.configDir, "AGENTS.md")), join(w.configDir, "AGENTS.md")) },
  {
    name: "an @ import",
    setup: async (w) => {
      await writeFile(w.path("AGENTS.md"), "Rules: @./rules.md\n");
      await fifo(w.path("rules.md"));
      return w.path("rules.md");
    },
  },
  { name: "an agent file of an untrusted workspace", setup: async (w) => (await fifo(w.path(".claude/agents/pipe.md")), w.path(".claude/agents/pipe.md")) },
  { name: "a user agent file", setup: async (w) => (await fifo(join(w.configDir, "agents/pipe.md")), join(w.configDir, "agents/pipe.md")) },
  { name: "memory/user/MEMORY.md", setup: async (w) => (await fifo(join(w.dataDir, "memory/user/MEMORY.md")), join(w.dataDir, "memory/user/MEMORY.md")) },
  { name: "a skill's SKILL.md", setup: async (w) => (await fifo(join(w.home, ".claude/skills/pipe/SKILL.md")), join(w.home, ".claude/skills/pipe/SKILL.md")), shownBy: ["skills", "list"] },
  { name: "the project's .mcp.json", setup: async (w) => (await fifo(w.path(".mcp.json")), w.path(".mcp.json")), shownBy: ["mcp", "list"] },
  { name: "a Claude settings file's hooks", setup: async (w) => (await fifo(w.path(".claude/settings.json")), w.path(".claude/settings.json")), args: ["--trust"] },
];

for (const c of cases) {
  test.concurrent(`a FIFO as ${c.name}: skipped with one warning, the run goes on`, async () => {
    await using w = await world();
    const path = await c.setup(w);
    w.fake.script({ reply: [text("still here")] });

    const r = await underTimeout(w, ["-p", "hi", ...(c.args ?? [])]);

    expect(r.stdout).toBe("still here\n");
    expect(r.code).toBe(0);
    const shown = c.shownBy ? await underTimeout(w, c.shownBy) : r;
    const lines = linesNaming(shown.stdout + shown.stderr, path);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("not a regular file");
  }, 30_000);
}

test.concurrent("a FIFO as a subfolder's AGENTS.md met mid-turn: the read goes on and the model is told", async () => {
  await using w = await world();
  await mkdir(w.path("sub"), { recursive: true });
  await writeFile(w.path("sub/notes.txt"), "the notes\n");
  await fifo(w.path("sub/AGENTS.md"));
  w.fake.script({ reply: [{ type: "tool_use", name: "read", input: { path: "sub/notes.txt" } }] }, { reply: [text("read it")] });

  const r = await underTimeout(w, ["-p", "read the notes"]);

  expect(r.code).toBe(0);
  expect(r.stdout).toBe("read it\n");
  const result = toolResultsOf(w.fake.requests[1]);
  expect(JSON.stringify(result)).toContain("the notes");
  expect(JSON.stringify(messagesOf(w.fake.requests[1]))).toContain("not a regular file");
}, 30_000);

test.concurrent("SIGTERM ends a run whose instruction files are FIFOs: no read holds the signal", async () => {
  await using w = await world();
  await fifo(w.path("AGENTS.md"));
  await writeFile(join(w.configDir, "AGENTS.md"), "See @./pipe.md\n");
  await fifo(join(w.configDir, "pipe.md"));
  w.fake.script({ hang: true });

  const rein = w.start(["-p", "hang here", "--output-format", "stream-json"]);
  await waitFor(() => w.fake.requests.length > 0, "the first request", 15_000);
  rein.kill("SIGTERM");
  // SIGKILL 2 s after SIGTERM, as `timeout -k 2` would: then the code is 137, not 143.
  const killer = setTimeout(() => rein.kill("SIGKILL"), 2_000);
  const r = await rein.exited;
  clearTimeout(killer);

  expect(r.code).toBe(143);
  expect(lastUserText(w.fake.requests[0])).toBe("hang here");
}, 30_000);
