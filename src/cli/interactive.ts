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
import type { Store } from "../session/store.ts";
import { costLine, sessionSpend } from "./cost-line.ts";
import { openSession } from "./open-session.ts";
import { findProjectRoot } from "../config/load.ts";
import { projectPaths, reinPaths } from "../config/paths.ts";
import { rememberTrust, workspaceTrust } from "../config/trust.ts";
import { budgetWarning, sessionOptions, toolRegistry } from "../session/factory.ts";
import type { Args } from "./args.ts";
import { exportToolSettings, openStore, resolveContext, runSettings, untrustedToolsWarning, type Context, type Env } from "./context.ts";
import { permissionDialog } from "./permission-dialog.ts";
import { formatLoadError } from "./tools-command.ts";

/** What the composition root lends the terminal: starting the HTTP server over its live session. */
export type InteractiveHooks = {
  serve?: (args: Args, env: Env, ctx: Context, store: Store, session: Session) => Promise<{ url: string; stop: () => Promise<void> }>;
  /** start serving at once (`rein --serve` in a terminal) */
  serveNow?: boolean;
};

export async function interactive(args: Args, env: Env, hooks: InteractiveHooks = {}): Promise<number> {
  if (env.NO_COLOR && !env.FORCE_COLOR) chalk.level = 0;
  if (!args.trust) await askTrustOnce(args, env);
  const ctx = resolveContext(args, env);
  const warn = (m: string) => process.stderr.write(chalk.yellow(`rein: ${m}\n`));
  const settings = runSettings(ctx);
  exportToolSettings(ctx, warn);
  const unpriced = budgetWarning(settings);
  if (unpriced) warn(unpriced);
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
  const dialogs = new Map<string, AbortController>();
  session.subscribe(render(ctx, session, rl, dialogs));
  let server: { url: string; stop: () => Promise<void> } | undefined;
  const startServing = async () => {
    if (server) return void process.stdout.write(chalk.dim(`already serving on ${server.url}\n`));
    if (!hooks.serve) return void process.stdout.write(chalk.yellow("serving is not available here: start rein with --serve\n"));
    try {
      server = await hooks.serve(args, env, ctx, store, session);
      process.stdout.write(chalk.dim(`this session is served on ${server.url}/sessions/${session.id} (events: /sessions/${session.id}/events)\n`));
    } catch (error) {
      process.stdout.write(chalk.red(`${(error as Error).message}\n`));
    }
  };
  if (hooks.serveNow) await startServing();
  process.stdout.write(chalk.dim(`rein ${settings.version} · ${settings.model} · ${ctx.cwd}\nCtrl-C stops a turn, twice at the prompt exits, Ctrl-D exits; /cost shows what the session spent, /compact [focus] summarises the conversation.\n`));
  try {
    while (true) {
      const line = await question(rl);
      if (line === undefined) break;
      interrupts = 0;
      if (!line.trim()) continue;
      if (line.trim() === "/serve") {
        await startServing();
        continue;
      }
      if (line.trim() === "/cost") {
        const spend = sessionSpend(store.events(session.id));
        process.stdout.write(chalk.dim(`session ${session.id}, ${spend.runs} run${spend.runs === 1 ? "" : "s"}: ${costLine(spend)}\n`));
        continue;
      }
      if (line.trim() === "/compact" || line.trim().startsWith("/compact ")) {
        const focus = line.trim().slice("/compact".length).trim();
        const done = await session.compact(focus || undefined);
        if (!done) process.stdout.write(chalk.dim("nothing to compact yet\n"));
        continue;
      }
      const result = await session.prompt(line);
      if (result.status !== "success" && result.error) process.stdout.write(chalk.red(`\n${result.error}\n`));
      if (result.status === "interrupted") process.stdout.write(chalk.dim("\n(interrupted)\n"));
      process.stdout.write(chalk.dim(`${costLine(result)}\n`));
    }
  } finally {
    rl.close();
    await server?.stop();
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

function render(ctx: Context, session: Session, rl: ReturnType<typeof createInterface>, dialogs: Map<string, AbortController>): (event: StampedEvent) => void {
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
      case "compaction":
        process.stdout.write(chalk.dim(`${compactionLine(event)}\n`));
        return;
      case "permission_ask": {
        const controller = new AbortController();
        dialogs.set(event.id, controller);
        void askPerson(ctx, session, rl, event, controller.signal).finally(() => dialogs.delete(event.id));
        return;
      }
      case "permission_reply":
        // Answered elsewhere (a client of the server): the first answer wins, the dialog closes.
        dialogs.get(event.id)?.abort();
        return;
      default:
        return;
    }
  };
}

async function askPerson(ctx: Context, session: Session, rl: ReturnType<typeof createInterface>, ask: Extract<StampedEvent, { type: "permission_ask" }>, signal: AbortSignal) {
  rl.pause();
  try {
    await permissionDialog(ctx, session, ask, signal);
  } finally {
    // clack leaves the terminal in cooked mode; readline needs raw mode back, or Ctrl-C becomes a signal.
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
    rl.resume();
  }
}

function compactionLine(event: Extract<StampedEvent, { type: "compaction" }>): string {
  const how = { prune: "old tool outputs removed", summary: "earlier conversation summarised", cut: "earlier conversation cut (the summary failed)" }[event.method];
  return `(context compacted: ${how}, ~${event.tokens_before} -> ~${event.tokens_after} tokens)`;
}

function brief(value: unknown): string {
  const first = value && typeof value === "object" ? Object.values(value)[0] : value;
  const text = typeof first === "string" ? first : JSON.stringify(first ?? "");
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}
