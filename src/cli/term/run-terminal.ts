// The terminal after its first paint: the app, its signals and crash handling, then the session
// loading behind the prompt, and the way out.
import chalk from "chalk";
import type { Args } from "../../app/args.ts";
import type { Env } from "../../app/context.ts";
import type { InteractiveHooks } from "../interactive.ts";
import { err, warn } from "../../app/output.ts";
import { App } from "./app.ts";
import type { LineEditor } from "./editor.ts";
import { appendHistory } from "./prompt-history.ts";
import type { Screen } from "./screen.ts";
import { colorLevel } from "./style.ts";
import type { Terminal } from "./terminal.ts";
import { Transcript } from "./transcript.ts";
import { stopBackgroundCommands } from "../../app/stop-background.ts";

export type Started = {
  args: Args;
  env: Env;
  hooks: InteractiveHooks;
  terminal: Terminal;
  screen: Screen;
  editor: LineEditor;
  cwd: string;
  historyFile: string;
};

export async function runTerminal({ args, env, hooks, terminal, screen, editor, cwd, historyFile }: Started): Promise<number> {
  chalk.level = colorLevel(env, chalk.level);
  let app: App | undefined;
  const transcript = new Transcript(screen, { cwd, color: chalk.level > 0, changed: () => app?.changed() });
  app = new App(screen, transcript, editor, (prompt) => appendHistory(historyFile, prompt));
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
  // In raw mode Ctrl-C is a key; a SIGINT comes from elsewhere (kill -INT): leave as Ctrl-D would.
  process.on("SIGINT", () => running.exit(130));
  app.suspend = () => {
    screen.clear();
    terminal.suspend(() => running.refresh());
  };
  app.lend = (run) => {
    screen.clear();
    terminal.lend(run);
  };
  terminal.onKeys(app.onKeys);
  terminal.onResize(() => {
    transcript.resize(screen.width);
    screen.resized();
    running.refresh();
  });
  if (args.prompt !== undefined) app.send(args.prompt);
  app.refresh();

  let cleanup = async (_code: number) => {};
  try {
    const { loadSession } = await import("./load.ts");
    const loaded = await loadSession(args, env, hooks, screen, app);
    cleanup = loaded.cleanup;
    app.ready(loaded);
  } catch (error) {
    const { fail } = await import("../run.ts");
    terminal.restore();
    screen.clear();
    return await fail(error);
  }
  const code = await app.done;
  terminal.restore();
  await cleanup(code);
  await stopBackgroundCommands(warn).catch(() => undefined); // a terminal gone (SIGHUP) takes no more lines
  return code;
}
