// The interactive mode: the prompt is on screen first, then the session, its store and its tools
// load behind it (typing already works). Only reached when stdin and stdout are both terminals.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import chalk from "chalk";
import { findProjectRoot } from "../config/load.ts";
import { projectPaths, reinPaths } from "../config/paths.ts";
import { rememberTrust, workspaceTrust } from "../config/trust.ts";
import type { Session } from "../session/session.ts";
import type { Store } from "../session/store.ts";
import { VERSION } from "../version.ts";
import type { Args } from "./args.ts";
import type { Context, Env } from "./context.ts";
import { err } from "./output.ts";
import { App } from "./term/app.ts";
import { appendHistory, loadHistory } from "./term/prompt-history.ts";
import { Screen } from "./term/screen.ts";
import { colorLevel } from "./term/style.ts";
import { openTerminal } from "./term/terminal.ts";
import { Transcript } from "./term/transcript.ts";

/** What the composition root lends the terminal: starting the HTTP server over its live session. */
export type InteractiveHooks = {
  serve?: (args: Args, env: Env, ctx: Context, store: Store, session: Session) => Promise<{ url: string; tokenNote?: string; stop: () => Promise<void> }>;
  /** start serving at once (`rein --serve` in a terminal) */
  serveNow?: boolean;
};

export async function interactive(args: Args, env: Env, hooks: InteractiveHooks = {}): Promise<number> {
  chalk.level = colorLevel(env, chalk.level);
  if (!args.trust) await askTrustOnce(args, env);
  const cwd = resolve(args.cwd ?? process.cwd());
  const historyFile = join(reinPaths(env).dataDir, "prompt-history.jsonl");

  // TERM=dumb: no escape sequence at all, not even to turn bracketed paste on.
  const fancy = env.TERM !== "dumb";
  const terminal = openTerminal(fancy);
  const screen = new Screen(terminal.io, fancy);
  let app: App | undefined;
  const transcript = new Transcript(screen, { cwd, color: chalk.level > 0, changed: () => app?.changed() });
  app = new App(screen, transcript, loadHistory(historyFile), (prompt) => appendHistory(historyFile, prompt));
  const running = app;
  const crash = (error: unknown) => {
    terminal.restore();
    err(`\nrein: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
  // The terminal went away: stop the turn (what it did is saved), write nothing more, leave.
  process.on("SIGHUP", () => (terminal.detach(), running.exit(129)));
  process.on("SIGTERM", () => running.exit(143));
  terminal.onKeys(app.onKeys);
  terminal.onResize(() => {
    transcript.resize(screen.width);
    screen.resized();
    running.refresh();
  });
  screen.print(chalk.dim(`rein ${VERSION} · ${cwd}`));
  app.refresh();

  let cleanup = async () => {};
  try {
    const { loadSession } = await import("./term/load.ts");
    const loaded = await loadSession(args, env, hooks, screen, app);
    cleanup = loaded.cleanup;
    app.ready(loaded);
  } catch (error) {
    const { fail } = await import("./run.ts");
    terminal.restore();
    screen.clear();
    return fail(error);
  }
  const code = await app.done;
  terminal.restore();
  await cleanup();
  return code;
}

/** Asks once per workspace whether its own tools and config may run, when it has any; the answer is remembered. */
async function askTrustOnce(args: Args, env: Env): Promise<void> {
  const root = findProjectRoot(resolve(args.cwd ?? process.cwd()));
  const dataDir = reinPaths(env).dataDir;
  const project = projectPaths(root);
  if (!existsSync(project.tools) && !existsSync(project.config)) return;
  if (workspaceTrust(dataDir, root) !== "unknown") return;
  const { confirm, isCancel } = await import("@clack/prompts");
  const answer = await confirm({
    message: `Trust ${root}? Its .rein/ folder can add tools that run code from the repository and loosen permissions.`,
    initialValue: false,
  });
  if (!isCancel(answer)) rememberTrust(dataDir, root, answer);
}
