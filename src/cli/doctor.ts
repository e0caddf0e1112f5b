// rein doctor: checks what a run needs, and says what to do about each problem.
import { homedir } from "node:os";
import { foreignPermissionWarnings } from "../config/rule.ts";
import { INSTRUCTION_CAP_BYTES, instructionSources, loadInstructions, sandboxAvailable, toolRegistry } from "../app/factory.ts";
import { API_CHECK_TIMEOUT_MS, checkAnthropicApi, providerReport } from "../app/provider-check.ts";
import type { Health } from "../session/store-open.ts";
import { instructionCap, reinDirs, openStoreForReading, toolDirs, type Context } from "../app/context.ts";
import { extensionReport } from "./extension-report.ts";
import { out } from "../app/output.ts";
import { lspChecks } from "./doctor-lsp.ts";
import { mcpChecks } from "./doctor-mcp.ts";
import { listMemories, memoryDirs } from "../app/memory.ts";

type Check = [name: string, ok: boolean, detail: string];

/** What did not load among plugins, agents, skills, commands and hooks fails; what loaded with a remark is a note. */
function extensionChecks(ctx: Context): Check[] {
  const { problems, notes } = extensionReport(ctx);
  if (!problems.length && !notes.length) return [["extensions", true, "plugins, agents, skills, commands and hooks loaded as written"]];
  return [...problems.map((p): Check => ["extensions", false, p]), ...notes.map((n): Check => ["extensions", true, `note: ${n}`])];
}

const MB = 1024 * 1024;
/** Past these sizes doctor suggests pruning or checkpointing. */
const LARGE_DB = 1024 * MB;
const LARGE_WAL = 64 * MB;

export async function doctor(ctx: Context): Promise<number> {
  const checks: Check[] = [];
  const { config } = ctx;
  // A bare model name is Anthropic's: its key and API keep the lines they always had.
  const anthropicModel = !config.model.includes("/") || config.model.startsWith("anthropic/");
  if (anthropicModel) {
    checks.push([
      "provider key",
      Boolean(config.apiKey),
      config.apiKey ? `set; API at ${config.baseURL ?? "https://api.anthropic.com"}` : "missing: export ANTHROPIC_API_KEY=... or set apiKey in the user config",
    ]);
    if (config.apiKey) checks.push(await apiCheck(config.apiKey, config.baseURL, ctx.env));
  }
  checks.push(...(await providerChecks(ctx, anthropicModel)));
  checks.push(...databaseChecks(ctx));
  const read = [...config.sources, ...config.claudeFiles.map((f) => f.file)];
  checks.push(["config", true, read.length ? `read ${read.join(", ")}` : "no config files (defaults)"]);
  for (const w of config.warnings) checks.push(["config", false, w]);
  checks.push(...settingsChecks(ctx));
  checks.push(...(await ruleChecks(ctx)));
  checks.push(sandboxCheck(config.sandbox));
  checks.push(["model", true, config.model]);
  checks.push(instructionsCheck(ctx));
  checks.push(memoryCheck(ctx));
  checks.push(...(await lspChecks(ctx)));
  checks.push(...mcpChecks(ctx));
  checks.push(...extensionChecks(ctx));
  for (const [name, ok, detail] of checks) out(`${ok ? "ok  " : "FAIL"} ${name.padEnd(13)} ${detail}\n`);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}

/** Each Claude Code settings file read: what was applied, then one line for each key that was not. */
function settingsChecks(ctx: Context): Check[] {
  return ctx.config.claudeFiles.flatMap((file): Check[] => [
    ["settings", true, `${file.file} (${file.scope}): ${file.applied.length ? `applied ${file.applied.join("; ")}` : "nothing applied"}`],
    ...file.ignored.map((what): Check => ["settings", true, `${file.file}: not applied: ${what}`]),
  ]);
}

/** Every other provider in use or configured: key present, endpoint answering, a local server listening. */
async function providerChecks(ctx: Context, anthropicShown: boolean): Promise<Check[]> {
  const { config } = ctx;
  const report = await providerReport({
    model: config.model,
    entries: config.providers,
    env: ctx.env,
    anthropic: { ...(config.apiKey ? { apiKey: config.apiKey } : {}), ...(config.baseURL ? { baseURL: config.baseURL } : {}) },
    timeoutMs: doctorTimeout(ctx.env),
    skip: anthropicShown ? ["anthropic"] : [],
  });
  if (typeof report === "string") return [["providers", false, report]];
  return report.map((c) => [c.name, c.ok, c.detail]);
}

function doctorTimeout(env: Context["env"]): number {
  const wanted = Number(env.REIN_DOCTOR_TIMEOUT_MS);
  return Number.isFinite(wanted) && wanted > 0 ? wanted : API_CHECK_TIMEOUT_MS;
}

/** One request to the API with the key, within a few seconds (REIN_DOCTOR_TIMEOUT_MS). */
async function apiCheck(apiKey: string, baseURL: string | undefined, env: Context["env"]): Promise<Check> {
  const { ok, detail } = await checkAnthropicApi({ apiKey, ...(baseURL ? { baseURL } : {}), timeoutMs: doctorTimeout(env) });
  return ["api", ok, detail];
}

/** Rules naming a permission that neither rein nor any tool that loads has: they apply to nothing. */
async function ruleChecks(ctx: Context): Promise<Check[]> {
  const foreign = ctx.config.foreignPermissions;
  if (foreign.length === 0) return [];
  const { tools } = await toolRegistry(toolDirs(ctx)).list();
  return foreignPermissionWarnings(foreign, tools.map((t) => t.tool.name)).map((warning): Check => ["rules", false, warning]);
}

/** Which line holds: the analysis alone, or the kernel sandbox behind it (and for what). */
function sandboxCheck(setting: Context["config"]["sandbox"]): Check {
  const sandbox = sandboxAvailable();
  if (!sandbox.ok) {
    const effect = setting === "on" ? "bash commands will not run (sandbox on)" : `the permission analysis holds alone (sandbox ${setting})`;
    return ["sandbox", setting !== "on", `unavailable: ${sandbox.reason}; ${effect}. To get it, ${sandbox.hint}`];
  }
  const others = setting === "off" ? "run unsandboxed (sandbox off)" : "run with only the workspace and temp folder writable";
  return [
    "sandbox",
    true,
    `bubblewrap ${sandbox.version}: commands allowed as read-only run with nothing writable, credentials hidden and no network; commands a person or a rule allowed ${others}`,
  ];
}

/** The instruction files a run reads, from where, and what was cut or refused (cut files are not refused: the run warns too). */
function instructionsCheck(ctx: Context): Check {
  const max = instructionCap(ctx.env);
  const home = ctx.env.HOME || homedir();
  const sources = instructionSources({ projectRoot: ctx.projectRoot, userInstructions: ctx.paths.userInstructions, cwd: ctx.cwd, home, reinDirs: reinDirs(ctx), trusted: ctx.trusted, extraInstructions: ctx.config.extraInstructions, ...(max ? { instructionMaxBytes: max } : {}) });
  const { files, warnings } = loadInstructions(sources);
  const cap = `each file capped at ${Math.round((max ?? INSTRUCTION_CAP_BYTES) / 1024)} KiB`;
  const short = (path: string) => shortPath(path, ctx.projectRoot, home);
  const loaded = files.map((f) => `${short(f.path)}${f.cut ? " (cut)" : ""}${f.imports.length ? ` (+${f.imports.length} import${f.imports.length === 1 ? "" : "s"})` : ""}`);
  const read = loaded.length ? `${loaded.join(", ")}; ${cap}` : "none found (AGENTS.md, CLAUDE.md, CLAUDE.local.md)";
  return ["instructions", true, [read, ...warnings].join("; ")];
}

/** A path as a person reads it here: relative to the project, or under ~. */
function shortPath(path: string, projectRoot: string, home: string): string {
  if (path.startsWith(`${projectRoot}/`)) return path.slice(projectRoot.length + 1);
  if (home && path.startsWith(`${home}/`)) return `~/${path.slice(home.length + 1)}`;
  return path;
}

/** Where this project's memories are, how many, and any file whose front matter cannot be read. */
function memoryCheck(ctx: Context): Check {
  const dirs = memoryDirs(ctx.paths.dataDir, ctx.projectRoot);
  const { memories, broken } = listMemories(dirs);
  const count = (scope: string) => memories.filter((m) => m.scope === scope).length;
  const bad = broken.map((b) => `${b.file}: ${b.problem} (rein memory edit or rm it)`);
  return ["memory", broken.length === 0, [`${count("project")} in ${dirs.project}, ${count("user")} in ${dirs.user}`, ...bad].join("; ")];
}

/** Opens the database (a corrupt one is moved aside), then PRAGMA quick_check, sizes and counts. */
function databaseChecks(ctx: Context): Check[] {
  const path = ctx.paths.db;
  let health: Health;
  let warning: string | undefined;
  try {
    const opened = openStoreForReading(ctx, (message) => (warning = message));
    if (opened.readOnly) warning = `${path} can only be read: its folder is not writable (a read-only file system, or no permission), so runs fail; make it writable or set REIN_DATA_DIR`;
    try {
      health = opened.store.health();
    } finally {
      opened.store.close();
    }
  } catch (error) {
    return [["database", false, (error as Error).message]];
  }
  return [
    ["database", !warning, warning ?? `${path} opens (WAL)`],
    [
      "db integrity",
      health.integrity === "ok",
      health.integrity === "ok"
        ? "PRAGMA quick_check: ok"
        : `PRAGMA quick_check: ${health.integrity}; close every rein, copy ${path} somewhere safe, then ` +
          `recover it (sqlite3 ${path} ".recover" | sqlite3 recovered.db) or move it aside (rein starts a new one)`,
    ],
    [
      "db size",
      health.bytes < LARGE_DB && health.walBytes < LARGE_WAL,
      `${megabytes(health.bytes)} database, ${megabytes(health.walBytes)} WAL` + sizeAdvice(health, path),
    ],
    ["sessions", true, `${health.sessions} (${health.trashed} in the trash${health.trashed ? "; rein sessions prune empties what is older than 30 days" : ""})`],
  ];
}

function sizeAdvice(health: Health, path: string): string {
  const advice: string[] = [];
  if (health.bytes >= LARGE_DB) advice.push("remove old sessions: rein sessions prune --older-than 90d (add --yes once the list looks right)");
  if (health.walBytes >= LARGE_WAL) {
    advice.push(`the WAL is large: close every rein, then run sqlite3 ${path} "PRAGMA wal_checkpoint(TRUNCATE)"`);
  }
  return advice.length ? `; ${advice.join("; ")}` : "";
}

function megabytes(bytes: number): string {
  return bytes < MB ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / MB).toFixed(1)} MB`;
}
