// Enforces DESIGN.md's dependency direction by reading the import lines of every source file.
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../../..");

// layer -> layers it may import (besides itself). `version` and `sdk` are leaves anyone may use.
const ALLOWED: Record<string, readonly string[]> = {
  tools: ["sdk", "prompts"],
  sdk: [],
  agent: ["sdk"],
  llm: ["agent", "sdk"],
  registry: ["agent", "sdk", "tools"],
  // sdk imports nothing of ours: its env-file definition is shared by the engine and the tools.
  permission: ["sdk"],
  // sdk/own-file.ts is the one reader of files rein opens on its own: config reads through it too.
  config: ["permission", "sdk"],
  agents: ["agent", "sdk", "config", "permission", "prompts"],
  // mcp runs stdio servers with the process-group leaf of sdk/ (markers, the watchdog), as bash and lsp do.
  mcp: ["agent", "sdk", "config", "permission", "registry"],
  session: ["agent", "agents", "mcp", "lsp", "sdk", "permission", "llm", "registry", "prompts", "hooks", "memory", "skills", "checkpoint", "plugins"],
  // lsp runs its servers with the process-group leaf of sdk/ (markers, the watchdog), as bash and hooks do.
  lsp: ["agent", "sdk", "config", "permission", "registry", "prompts"],
  memory: ["agent", "sdk", "config", "permission", "prompts"],
  hooks: ["agent", "sdk", "config", "permission"],
  skills: ["agent", "sdk", "config", "permission", "prompts"],
  plugins: ["agent", "sdk", "config", "permission", "skills", "agents"],
  checkpoint: ["agent", "sdk", "config", "permission"],
  // app: the application context every front end uses (settings, the run's extensions, the store,
  // session options, the tool registry, the command line); it builds on the session, never the reverse.
  app: ["agent", "agents", "mcp", "lsp", "sdk", "permission", "llm", "registry", "prompts", "hooks", "memory", "skills", "checkpoint", "plugins", "session", "config"],
  // Front ends reach the session through app/ and session/ only; server and acp import nothing of cli/.
  cli: ["app", "session", "config", "sdk"],
  server: ["app", "session", "config", "sdk"],
  acp: ["app", "session", "config", "sdk"],
  main: ["*"],
  version: [],
  types: [],
};

function layerOf(file: string): string | undefined {
  const rel = relative(ROOT, file);
  if (rel.startsWith("tools/")) return "tools";
  if (rel.startsWith("prompts/")) return "prompts";
  if (rel === "src/sdk.ts") return "sdk";
  if (rel === "src/main.ts" || rel === "src/serve.ts" || rel === "src/serve-main.ts" || rel === "src/acp-main.ts") return "main";
  if (rel === "src/version.ts" || rel === "package.json") return "version";
  if (rel === "src/text-modules.d.ts") return "types";
  const match = /^src\/([^/]+)\//.exec(rel);
  return match?.[1];
}

function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  for (const m of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/g)) specifiers.push(m[1]!);
  for (const m of source.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) specifiers.push(m[1]!);
  return specifiers;
}

async function violations(): Promise<string[]> {
  const found: string[] = [];
  for (const pattern of ["src/**/*.ts", "tools/**/*.ts"]) {
    for await (const rel of new Glob(pattern).scan(ROOT)) {
      const file = join(ROOT, rel);
      const from = layerOf(file)!;
      const allowed = ALLOWED[from];
      if (!allowed) {
        found.push(`${rel}: layer "${from}" is not in the table`);
        continue;
      }
      for (const spec of importsOf(await Bun.file(file).text())) {
        const target = spec === "rein/tool" ? "sdk" : spec.startsWith(".") ? layerOf(resolve(dirname(file), spec)) : undefined;
        if (!target || target === from || target === "version" || target === "types") continue;
        if (allowed.includes("*") || allowed.includes(target)) continue;
        found.push(`${rel} imports ${spec} (${from} -> ${target})`);
      }
    }
  }
  return found;
}

describe("layers", () => {
  test("every import follows the dependency direction of DESIGN.md", async () => {
    expect(await violations()).toEqual([]);
  });

  test("the check sees a forbidden import when there is one", () => {
    const specs = importsOf(`import { x } from "../cli/run.ts";\nconst y = await import("../server/app.ts");`);
    expect(specs).toEqual(["../cli/run.ts", "../server/app.ts"]);
    expect(layerOf(join(ROOT, "src/agent/loop.ts"))).toBe("agent");
    expect(ALLOWED.agent).not.toContain(layerOf(join(ROOT, "src/cli/run.ts")));
  });

  test("the ACP and server front ends, their composition roots too, import nothing of cli/", async () => {
    const offenders: string[] = [];
    for (const pattern of ["src/acp/**/*.ts", "src/server/**/*.ts", "src/acp-main.ts", "src/serve.ts"]) {
      for await (const rel of new Glob(pattern).scan(ROOT)) {
        const file = join(ROOT, rel);
        for (const spec of importsOf(await Bun.file(file).text())) {
          if (spec.startsWith(".") && layerOf(resolve(dirname(file), spec)) === "cli") offenders.push(`${rel} imports ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  test("session/ holds no file that only re-exports other layers (a front end's way in is app/)", async () => {
    const facades: string[] = [];
    for await (const rel of new Glob("src/session/**/*.ts").scan(ROOT)) {
      const code = (await Bun.file(join(ROOT, rel)).text()).replace(/^\s*\/\/.*$/gm, "").trim();
      const statements = code.split(/;\s*/).filter(Boolean);
      if (statements.length > 0 && statements.every((line) => /^export\s[^]*\sfrom\s+["']/.test(line.trim()))) facades.push(rel);
    }
    expect(facades).toEqual([]);
  });

  test("app is a layer: its files are found, and the session may not import it", () => {
    expect(layerOf(join(ROOT, "src/app/context.ts"))).toBe("app");
    expect(ALLOWED.app).toContain("session");
    expect(ALLOWED.session).not.toContain("app");
    for (const front of ["cli", "server", "acp"]) expect(ALLOWED[front]).toContain("app");
    expect([...ALLOWED.server!, ...ALLOWED.acp!]).not.toContain("cli");
  });

  test("the agent core touches no file system, console or Bun", async () => {
    const offenders: string[] = [];
    for await (const rel of new Glob("src/agent/**/*.ts").scan(ROOT)) {
      const text = await Bun.file(join(ROOT, rel)).text();
      if (/from\s+["']node:(fs|child_process|readline)|\bBun\.\w|console\.|process\.std/.test(text)) offenders.push(rel);
    }
    expect(offenders).toEqual([]);
  });
});
