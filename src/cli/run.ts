// Dispatches a command line to its mode and turns failures into exit codes: 2 for usage and
// configuration errors, 1 for everything else that went wrong. Modes are imported when chosen: the
// interactive prompt must not wait for the configuration, the store and the provider to load.
import { parseArgs, UsageError } from "../app/args.ts";
import type { Context } from "../app/context.ts";
import type { InteractiveHooks } from "./interactive.ts";
import { bothTerminals, err, out } from "../app/output.ts";
import { sessionlessResult } from "./sessionless-result.ts";
import { claudeStream } from "./claude-format.ts";

const context = async (args: ReturnType<typeof parseArgs>, env: Record<string, string | undefined>): Promise<Context> =>
  (await import("../app/context.ts")).resolveContext(args, env);

/** `rein acp` lives in a front end of its own (src/acp/), which the cli layer cannot import: main.ts hands it in. */
export type RunHooks = InteractiveHooks & { acp?: (args: ReturnType<typeof parseArgs>, env: Record<string, string | undefined>) => Promise<number> };

export async function run(argv: string[], env: Record<string, string | undefined> = process.env, hooks: RunHooks = {}): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.help) return print((await import("./help.ts")).HELP);
    if (args.version) return print(`rein ${(await import("../version.ts")).VERSION}\n`);
    const [command, ...rest] = args.command;
    if (command === "acp" && !args.print && hooks.acp) return await hooks.acp(args, env);
    if (command && !args.print) return await subcommand(command, rest, args, env);
    if (args.worktree !== undefined) return await inWorktree(args, env, (moved) => mode(moved, env, hooks));
    return await mode(args, env, hooks);
  } catch (error) {
    const told: string[] = [];
    const code = await fail(error, env, told);
    try {
      // The result's `error` is the line stderr got (a known fault's, with what to do), not the raw errno.
      earlyResult(argv, told.length && !told[0]!.startsWith("internal error: ") ? new Error(told[0]) : error);
    } catch {
      // stdout is what failed
    }
    return code;
  }
}

async function mode(args: ReturnType<typeof parseArgs>, env: Record<string, string | undefined>, hooks: RunHooks): Promise<number> {
  if (args.print) return await (await import("./print-mode.ts")).printMode(await context(args, env));
  if (!(await bothTerminals())) {
    throw new UsageError('the interactive mode needs a terminal on stdin and stdout; for scripts use: rein -p "PROMPT"');
  }
  return await (await import("./interactive.ts")).interactive(args, env, hooks);
}

/**
 * `--worktree NAME`: the main session runs in a git worktree of the repository (a branch rein/NAME
 * under the data folder); at the end an unchanged one is removed, a changed one kept and named on stderr.
 */
async function inWorktree(args: ReturnType<typeof parseArgs>, env: Record<string, string | undefined>, go: (args: ReturnType<typeof parseArgs>) => Promise<number>): Promise<number> {
  const { createWorktree, finishWorktree } = await import("../session/worktree.ts");
  const { reinPaths } = await import("../config/paths.ts");
  const { resolve } = await import("node:path");
  const cwd = resolve(args.cwd ?? process.cwd());
  const wt = await createWorktree(cwd, reinPaths(env).dataDir, args.worktree!).catch((error: Error) => {
    throw new UsageError(`--worktree ${args.worktree}: ${error.message}`);
  });
  try {
    return await go({ ...args, cwd: wt.cwd });
  } finally {
    const kept = await finishWorktree(wt).catch(() => `path: ${wt.path}`);
    if (kept) err(`rein: kept the worktree with its changes:\n${kept}\n`);
  }
}

/**
 * json and stream-json promise a closing `result` even when rein fails before a session exists
 * (bad flag, config, key, database): it then has no session_id and seq 0.
 */
function earlyResult(argv: readonly string[], error: unknown): void {
  const print = argv.includes("-p") || argv.includes("--print");
  const at = argv.indexOf("--output-format");
  const format = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith("--output-format="))?.slice(16);
  const message = error instanceof Error ? error.message : String(error);
  if (print && (format === "claude-json" || format === "claude-stream-json")) return out(claudeStream().claudeSessionlessResult("error", message));
  if (!print || (format !== "json" && format !== "stream-json")) return;
  out(sessionlessResult("error", message));
}

async function subcommand(command: string, rest: string[], args: ReturnType<typeof parseArgs>, env: Record<string, string | undefined>): Promise<number> {
  switch (command) {
    case "sessions":
      return (await import("./sessions-command.ts")).sessionsCommand(rest, await context(args, env));
    case "tools":
      return (await import("./tools-command.ts")).toolsCommand(rest, await context(args, env));
    case "permissions":
      return (await import("./permissions-command.ts")).permissionsCommand(rest, await context(args, env));
    case "plugin":
      return (await import("./plugin/plugin-command.ts")).pluginCommand(rest, await context(args, env));
    case "skills":
      return (await import("./skills-command.ts")).skillsCommand(rest, await context(args, env));
    case "hooks":
      return (await import("./hooks-command.ts")).hooksCommand(rest, await context(args, env));
    case "teams":
      return (await import("./teams-command.ts")).teamsCommand(rest, await context(args, env));
    case "doctor":
      return (await import("./doctor.ts")).doctor(await context(args, env));
    case "models":
      return (await import("./models-command.ts")).modelsCommand(await context(args, env));
    case "undo":
    case "redo":
      return (await import("./undo-command.ts")).undoCommand(await context(args, env), command === "redo");
    case "checkpoints":
      return (await import("./checkpoints-command.ts")).checkpointsCommand(rest, await context(args, env));
    case "mcp":
      return (await import("./mcp-command.ts")).mcpCommand(rest, await context(args, env));
    case "memory":
      return (await import("./memory-command.ts")).memoryCommand(rest, await context(args, env));
    default:
      throw new UsageError(`unknown command "${command}" (commands: sessions, teams, tools, skills, plugin, hooks, permissions, doctor, models, acp, mcp, memory, undo, redo, checkpoints)`);
  }
}

function print(text: string): number {
  out(text);
  return 0;
}

/** Reports a failure on stderr; the exit code. The error classes are loaded only when something failed. */
/** `told`, when given, gets the line that was shown (without "rein: "). */
export async function fail(error: unknown, env: Record<string, string | undefined> = process.env, told?: string[]): Promise<number> {
  const [{ ConfigError }, { StoreError }, { MissingKeyError }, { knownFault }, { reinPaths }] = await Promise.all([
    import("../config/config-error.ts"),
    import("../session/store-open.ts"),
    import("../app/context.ts"),
    import("../app/known-fault.ts"),
    import("../config/paths.ts"),
  ]);
  const say = (line: string) => {
    told?.push(line);
    report(`rein: ${line}\n`);
  };
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof MissingKeyError) {
    say(error.message);
    return 2;
  }
  const known = error instanceof StoreError ? error.message : knownFault(error, reinPaths(env));
  if (known) {
    say(known);
    return 1;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  say(`internal error: ${message}`);
  return 1;
}

/** stderr may be the thing that broke (closed, full): then nothing more can be said. */
function report(text: string): void {
  try {
    err(text);
  } catch {
    // nowhere left to write
  }
}
