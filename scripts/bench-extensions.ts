// rein with every extension configured but unused: 20 skills, 3 MCP servers with 50 tools (their
// lists cached by a first run, so none starts), a 20-entry memory index, a hook, an agent of the
// user's and an installed plugin. Figures: what each part adds to every request, against the
// budgets of its issue, and the one-shot's time and peak memory against a bare setup, interleaved.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryDirs } from "../src/memory/store.ts";
import type { FakeServer } from "../test/fake/server.ts";
import { benchEnv } from "./bench-proc.ts";
import type { Row } from "./bench-report.ts";
import { median, peakRss, runCommand } from "./bench-run.ts";
import { firstRequestChars } from "./bench-startup.ts";

const SKILLS = 20;
const SERVERS = [17, 17, 16]; // 50 tools
const MEMORIES = 20;

export type ExtensionFigures = {
  base: number;
  skills: number;
  mcp: number;
  memory: number;
  all: number;
  oneShotMs: number;
  bareOneShotMs: number;
  peakMiB: number;
};

type Part = "skills" | "mcp" | "memory" | "rest";

export async function extensionFigures(bin: string, fake: FakeServer, runs: number): Promise<ExtensionFigures> {
  const root = mkdtempSync(join(tmpdir(), "rein-bench-ext-"));
  try {
    const setup = (name: string, parts: Part[]) => {
      const home = join(root, name);
      const cwd = join(home, "work");
      mkdirSync(join(cwd, ".git"), { recursive: true });
      const env = benchEnv(home, fake.url);
      install(home, cwd, parts, bin, env);
      return { env, cwd };
    };
    const bare = setup("bare", []);
    const chars = async (parts: Part[]) => {
      const s = setup(parts.join("-"), parts);
      await firstRequestChars(bin, s.env, fake, s.cwd); // the first run caches the MCP servers' lists
      return { ...s, chars: await firstRequestChars(bin, s.env, fake, s.cwd) };
    };
    const base = await firstRequestChars(bin, bare.env, fake, bare.cwd);
    const skills = (await chars(["skills"])).chars - base;
    const mcp = (await chars(["mcp"])).chars - base;
    const memory = (await chars(["memory"])).chars - base;
    const full = await chars(["skills", "mcp", "memory", "rest"]);
    const samples = { full: [] as number[], bare: [] as number[] };
    for (let i = -1; i < runs; i++) {
      for (const [name, s] of [["full", full], ["bare", bare]] as const) {
        fake.script({ reply: [{ type: "text", text: "ok" }] });
        const ms = (await runCommand([bin, "-p", "say ok"], s.env, s.cwd)).ms;
        if (i >= 0) samples[name].push(ms);
      }
    }
    const peaks: number[] = [];
    for (let i = 0; i < 5; i++) {
      fake.script({ reply: [{ type: "text", text: "ok" }] });
      const rss = await peakRss([bin, "-p", "say ok"], full.env, full.cwd);
      if (rss) peaks.push(rss);
    }
    return { base, skills, mcp, memory, all: full.chars, oneShotMs: median(samples.full), bareOneShotMs: median(samples.bare), peakMiB: (peaks.length ? median(peaks) : 0) / 2 ** 20 };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function install(home: string, cwd: string, parts: Part[], bin: string, env: Record<string, string>): void {
  const config: Record<string, unknown> = {};
  if (parts.includes("skills")) {
    for (let i = 0; i < SKILLS; i++) {
      const name = `team-skill-${String(i + 1).padStart(2, "0")}`;
      mkdirSync(join(home, ".agents/skills", name), { recursive: true });
      writeFileSync(
        join(home, ".agents/skills", name, "SKILL.md"),
        `---\nname: ${name}\ndescription: Use when the user works on area ${i + 1} of the product: the conventions, commands and checks it needs.\n---\nThe instructions for area ${i + 1}.\n`,
      );
    }
  }
  if (parts.includes("mcp")) {
    const server = join(home, "mcp-server.ts");
    writeFileSync(server, MCP_SERVER);
    config.mcpServers = Object.fromEntries(SERVERS.map((tools, i) => [`srv${i + 1}`, { command: process.execPath, args: [server, String(tools), `srv${i + 1}`] }]));
  }
  if (parts.includes("memory")) {
    const dir = memoryDirs(join(home, "data"), cwd).project;
    mkdirSync(dir, { recursive: true });
    const lines = Array.from({ length: MEMORIES }, (_, i) => `- [Fact ${i + 1}](fact-${i + 1}.md): the team's convention number ${i + 1} for this project`);
    writeFileSync(join(dir, "MEMORY.md"), `${lines.join("\n")}\n`);
  }
  if (parts.includes("rest")) {
    config.hooks = { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "true" }] }] };
    mkdirSync(join(home, ".claude/agents"), { recursive: true });
    writeFileSync(join(home, ".claude/agents/reviewer.md"), "---\nname: reviewer\ndescription: Reviews a change and reports problems.\ntools: read, grep\n---\nReview the change.\n");
    const plugin = join(home, "plugin-src");
    mkdirSync(join(plugin, "commands"), { recursive: true });
    writeFileSync(join(plugin, "commands", "hello.md"), "Say hello to $ARGUMENTS.\n");
  }
  mkdirSync(join(home, "config"), { recursive: true });
  writeFileSync(join(home, "config", "config.json"), JSON.stringify(config));
  if (parts.includes("rest")) {
    const installed = Bun.spawnSync([bin, "plugin", "install", join(home, "plugin-src"), "--yes"], { env, cwd, stdout: "pipe", stderr: "pipe" });
    if (installed.exitCode !== 0) throw new Error(`rein plugin install failed: ${installed.stderr.toString()}`);
  }
}

/** A stdio MCP server of N tools (argv[2]) named after argv[3]; each tool has a one-line description and two parameters. */
const MCP_SERVER = `const [count, server] = [Number(process.argv[2]), process.argv[3]];
const tools = Array.from({ length: count }, (_, i) => ({
  name: \`action_\${i + 1}\`,
  description: \`Does action \${i + 1} of the \${server} service: looks up or changes one of its records.\`,
  inputSchema: { type: "object", properties: { id: { type: "string" }, note: { type: "string" } }, required: ["id"] },
}));
const send = (m: object) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
let buffer = "";
process.stdin.on("data", (chunk) => {
  buffer += chunk.toString();
  for (let nl = buffer.indexOf("\\n"); nl >= 0; nl = buffer.indexOf("\\n")) {
    const line = buffer.slice(0, nl).trim();
    buffer = buffer.slice(nl + 1);
    if (!line) continue;
    const { id, method, params } = JSON.parse(line);
    if (method === "initialize") send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: server, version: "1" } } });
    else if (method === "tools/list") send({ id, result: { tools } });
    else if (method === "tools/call") send({ id, result: { content: [{ type: "text", text: "done" }] } });
    else if (id !== undefined) send({ id, result: {} });
  }
});
`;

export function extensionRows(f: ExtensionFigures): Row[] {
  return [
    {
      figure: `carried on every request: what ${SKILLS} skills add (the catalog and the skill tool)`,
      shown: `${f.skills} characters`,
      value: f.skills,
      target: { max: 3_000, text: "at most 3,000 characters" },
    },
    {
      figure: `... what ${SERVERS.length} MCP servers with ${SERVERS.reduce((a, b) => a + b, 0)} tools add (over the tool budget: the search tool stands in)`,
      shown: `${f.mcp} characters`,
      value: f.mcp,
      target: { max: 150 * SERVERS.length + 400, text: `at most 150 a server and the search tool (${150 * SERVERS.length + 400})` },
    },
    { figure: `... what a ${MEMORIES}-entry memory index adds (the index, its preamble, the memory tool)`, shown: `${f.memory} characters` },
    {
      figure: "... all of them, with a hook, a user agent and a plugin configured too",
      shown: `${f.all} characters`,
      value: f.all,
      target: { max: 8_000 + 3_000 + 150 * SERVERS.length + 400 + f.memory, text: "within the sum of the budgets above" },
    },
    {
      figure: "one-shot with every extension configured but unused / with none (interleaved)",
      shown: `${f.oneShotMs.toFixed(1)} ms / ${f.bareOneShotMs.toFixed(1)} ms = ${(f.oneShotMs / f.bareOneShotMs).toFixed(2)}x`,
    },
    {
      figure: "one-shot peak memory with every extension configured but unused (max RSS, GNU time)",
      shown: `${f.peakMiB.toFixed(1)} MiB`,
      value: f.peakMiB,
      target: { max: 60, text: "at most 60 MiB" },
    },
  ];
}

if (import.meta.main) {
  const { startFakeAnthropic } = await import("../test/fake/server.ts");
  const fake = await startFakeAnthropic();
  try {
    console.log(await extensionFigures(join(import.meta.dir, "../dist/rein"), fake, Number(process.env.BENCH_RUNS ?? 7)));
  } finally {
    await fake.close();
  }
}
