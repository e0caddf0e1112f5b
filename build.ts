// Builds dist/rein for the host, or every release target with `--release` (see scripts/release.ts).
import pkg from "./package.json" with { type: "json" };

export type Target = Bun.Build.CompileTarget;

export async function compile(outfile: string, target?: Target): Promise<void> {
  const result = await Bun.build({
    // The worker that tries tool imports first (src/registry/import-check.ts) is an entry of its own.
    entrypoints: ["./src/main.ts", "./src/registry/import-check-worker.ts"],
    compile: {
      outfile,
      ...(target ? { target } : {}),
      // A repository's .env or bunfig.toml (and its preload) must never run inside rein.
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
    minify: true,
    bytecode: true,
    format: "esm",
    splitting: true,
    plugins: [withoutAjv],
    define: { REIN_VERSION: JSON.stringify(pkg.version), REIN_BUILD: JSON.stringify(await buildId()), REIN_BUILTIN_TOOLS: JSON.stringify(await builtinSpecs()), REIN_MEMORY_TOOL: JSON.stringify(await memoryToolSpec()) },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`build failed for ${target ?? "host"}`);
  }
}

/**
 * The MCP SDK's client imports its ajv validator for tools' output schemas even when given another
 * one; rein gives every client its own (src/mcp/accept-any-schema.ts), so the ajv module is swapped
 * for that file's stand-in and ajv stays out of the binary (about 0.5 MiB).
 */
const withoutAjv: Bun.BunPlugin = {
  name: "mcp-without-ajv",
  setup(build) {
    build.onResolve({ filter: /@modelcontextprotocol\/sdk\/dist\/esm\/validation\/ajv-provider\.js$|^\.\.\/validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.includes("@modelcontextprotocol/sdk") || args.path.includes("@modelcontextprotocol/sdk") ? { path: `${import.meta.dir}/src/mcp/accept-any-schema.ts` } : undefined,
    );
  },
};

/** The version and a hash of every source file that goes into the binary (src/version.ts's BUILD). */
async function buildId(): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for (const pattern of ["src/**/*.ts", "tools/**/*.ts", "prompts/**/*", "package.json", "bun.lock"]) {
    for (const file of [...new Bun.Glob(pattern).scanSync(import.meta.dir)].sort()) hasher.update(file).update(await Bun.file(`${import.meta.dir}/${file}`).bytes());
  }
  return `${pkg.version}+${hasher.digest("hex").slice(0, 12)}`;
}

/**
 * What the binary knows of each built-in tool before its module loads (src/registry/builtin.ts):
 * its definition as the model reads it and whether it is read-only, computed here once.
 */
async function builtinSpecs() {
  const [{ builtinTools }, { toolDefinition }] = await Promise.all([import("./src/registry/builtin.ts"), import("./src/agent/tool-schema.ts")]);
  return builtinTools().map((tool) => ({ definition: toolDefinition(tool), readOnly: tool.readOnly === true }));
}

/** The memory tool's the same way (src/memory/session-memory.ts): its definition does not depend on the folders. */
async function memoryToolSpec() {
  const [{ memoryTool }, { toolDefinition }] = await Promise.all([import("./src/memory/memory-tool.ts"), import("./src/agent/tool-schema.ts")]);
  const tool = memoryTool({ project: "/", user: "/" });
  return { definition: toolDefinition(tool), readOnly: tool.readOnly === true };
}

async function smokeRun(binary: string): Promise<void> {
  const proc = Bun.spawnSync([binary, "--version"], { stdout: "pipe", stderr: "pipe" });
  const out = proc.stdout.toString().trim();
  if (proc.exitCode !== 0 || !out.includes(pkg.version)) {
    throw new Error(`smoke run of ${binary} --version failed (exit ${proc.exitCode}): ${out} ${proc.stderr}`);
  }
  console.error(`built ${binary}: ${out}`);
}

if (import.meta.main) {
  if (process.argv.includes("--release")) {
    const { buildRelease } = await import("./scripts/release.ts");
    await buildRelease("dist/release");
  } else {
    await compile("dist/rein");
    await smokeRun("dist/rein");
  }
}

export { smokeRun };
