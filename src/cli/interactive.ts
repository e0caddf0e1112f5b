// A minimal interactive mode: read a prompt, stream the answer, ask permissions with
// @clack/prompts. Ctrl-C aborts a running turn; a second Ctrl-C at the prompt exits.
// Only reached when stdin and stdout are both terminals (clack hangs otherwise).
import { createInterface } from "node:readline/promises";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { confirm, isCancel } from "@clack/prompts";
import chalk from "chalk";
import type { StampedEvent } from "../session/events.ts";
import type { Session } from "../session/session.ts";
import { openSession } from "./open-session.ts";
import { findProjectRoot } from "../config/load.ts";
import { projectPaths, reinPaths } from "../config/paths.ts";
import { rememberTrust, workspaceTrust } from "../config/trust.ts";
import { sessionOptions, toolRegistry } from "../session/factory.ts";
import type { Args } from "./args.ts";
import { exportToolSettings, openStore, resolveContext, runSettings, untrustedToolsWarning, type Context, type Env } from "./context.ts";
import { permissionDialog } from "./permission-dialog.ts";
import { formatLoadError } from "./tools-command.ts";

export async function interactive(args: Args, env: Env): Promise<number> {
  if (env.NO_COLOR && !env.FORCE_COLOR) chalk.level = 0;
  if (!args.trust) await askTrustOnce(args, env);
  const ctx = resolveContext(args, env);
  const warn = (m: string) => process.stderr.write(chalk.yellow(`rein: ${m}\n`));
  const settings = runSettings(ctx);
  exportToolSettings(ctx, warn);
  const store = openStore(ctx, warn);
  const untrusted = untrustedToolsWarning(ctx);
  if (untrusted) warn(untrusted);
  const registry = toolRegistry(settings.toolDirs, (errors) => warn(`tools not loaded:\n${errors.map(formatLoadError).join("\n")}`));
  const session = openSession(ctx, store, sessionOptions(settings, store, registry));
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true, historySize: 200 });
  let interrupts = 0;
  rl.on("SIGINT", () => {
    if (session.running) return session.abort();
    interrupts++;
    if (interrupts >= 2) rl.close();
    else process.stdout.write(chalk.dim("\n(press Ctrl-C again to exit)\n"));
  });
  // A fallback for when the terminal is not in raw mode (Ctrl-C then arrives as a signal).
  process.on("SIGINT", () => rl.emit("SIGINT"));
  session.subscribe(render(ctx, session, rl));
  process.stdout.write(chalk.dim(`rein ${settings.version} · ${settings.model} · ${ctx.cwd}\nCtrl-C stops a turn, twice at the prompt exits, Ctrl-D exits.\n`));
  try {
    while (true) {
      const line = await question(rl);
      if (line === undefined) break;
      interrupts = 0;
      if (!line.trim()) continue;
      const result = await session.prompt(line);
      if (result.status !== "success" && result.error) process.stdout.write(chalk.red(`\n${result.error}\n`));
      if (result.status === "interrupted") process.stdout.write(chalk.dim("\n(interrupted)\n"));
    }
  } finally {
    rl.close();
    store.close();
  }
  process.stdout.write(chalk.dim(`session ${session.id} (resume: rein -r ${session.id})\n`));
  return 0;
}

/** Asks once per workspace whether its own tools and config may run, when it has any; the answer is remembered. */
async function askTrustOnce(args: Args, env: Env): Promise<void> {
  const root = findProjectRoot(resolve(args.cwd ?? process.cwd()));
  const dataDir = reinPaths(env).dataDir;
  const project = projectPaths(root);
  if (!existsSync(project.tools) && !existsSync(project.config)) return;
  if (workspaceTrust(dataDir, root) !== "unknown") return;
  const answer = await confirm({
    message: `Trust ${root}? Its .rein/ folder can add tools that run code from the repository and loosen permissions.`,
    initialValue: false,
  });
  if (!isCancel(answer)) rememberTrust(dataDir, root, answer);
}

function question(rl: ReturnType<typeof createInterface>): Promise<string | undefined> {
  return new Promise((resolve) => {
    const onClose = () => resolve(undefined);
    rl.once("close", onClose);
    rl.question(chalk.bold("› ")).then(
      (answer) => (rl.off("close", onClose), resolve(answer)),
      () => resolve(undefined),
    );
  });
}

function render(ctx: Context, session: Session, rl: ReturnType<typeof createInterface>): (event: StampedEvent) => void {
  return (event) => {
    switch (event.type) {
      case "text_delta":
        process.stdout.write(event.text);
        return;
      case "assistant":
        process.stdout.write("\n");
        return;
      case "tool_start":
        process.stdout.write(chalk.cyan(`● ${event.name} `) + chalk.dim(brief(event.input)) + "\n");
        return;
      case "tool_end":
        process.stdout.write(chalk.dim(`  ${event.is_error ? chalk.red("error: ") : ""}${brief(event.output)}\n`));
        return;
      case "retry":
        process.stdout.write(chalk.yellow(`retrying in ${(event.delay_ms / 1000).toFixed(1)}s: ${event.reason}\n`));
        return;
      case "permission_ask":
        void askPerson(ctx, session, rl, event);
        return;
      default:
        return;
    }
  };
}

async function askPerson(ctx: Context, session: Session, rl: ReturnType<typeof createInterface>, ask: Extract<StampedEvent, { type: "permission_ask" }>) {
  rl.pause();
  try {
    await permissionDialog(ctx, session, ask);
  } finally {
    // clack leaves the terminal in cooked mode; readline needs raw mode back, or Ctrl-C becomes a signal.
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
    rl.resume();
  }
}

function brief(value: unknown): string {
  const first = value && typeof value === "object" ? Object.values(value)[0] : value;
  const text = typeof first === "string" ? first : JSON.stringify(first ?? "");
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}
