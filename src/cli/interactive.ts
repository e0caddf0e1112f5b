// The interactive mode: the prompt is on screen first, then the session, its store and its tools
// load behind it (typing already works). Only reached when stdin and stdout are both terminals.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { findProjectRoot } from "../config/find-project-root.ts";
import { reinPaths } from "../config/paths.ts";
import { listed, trustSummary } from "../config/trust-summary.ts";
import { rememberTrust, workspaceTrust } from "../config/trust.ts";
import type { Session } from "../session/session.ts";
import type { Store } from "../session/store.ts";
import { VERSION } from "../version.ts";
import type { Args } from "../app/args.ts";
import type { Context, Env } from "../app/context.ts";
import { LineEditor } from "./term/editor.ts";
import { loadHistory } from "./term/prompt-history.ts";
import { Screen } from "./term/screen.ts";
import { colorLevel } from "./term/style.ts";
import { openTerminal, type Terminal } from "./term/terminal.ts";

/** The server over the terminal's session; `hub.adopt` hands it the session reopened (another agent, /memory reload). */
export type ServedSession = { url: string; tokenNote?: string; stop: () => Promise<void>; hub?: { adopt(session: Session): void } };

/** What the composition root lends the terminal: starting the HTTP server over its live session. */
export type InteractiveHooks = {
  serve?: (args: Args, env: Env, ctx: Context, store: Store, session: Session) => Promise<ServedSession>;
  /** start serving at once (`rein --serve` in a terminal) */
  serveNow?: boolean;
};

/**
 * The banner and the prompt are drawn from a few small modules; the rest (chalk, the renderers,
 * the app) loads while the user starts typing, and the session after it. Keys wait in the terminal.
 */
export async function interactive(args: Args, env: Env, hooks: InteractiveHooks = {}): Promise<number> {
  const cwd = resolve(args.cwd ?? process.cwd());
  const historyFile = join(reinPaths(env).dataDir, "prompt-history.jsonl");
  // TERM=dumb: no escape sequence at all, not even to turn bracketed paste on.
  const fancy = env.TERM !== "dumb";
  const terminal = openTerminal(fancy);
  const screen = new Screen(terminal.io, fancy);
  const editor = new LineEditor();
  const styled = colorLevel(env, 1) > 0;
  const sgr = (on: string, off: string) => (text: string) => (styled ? `\x1b[${on}m${text}\x1b[${off}m` : text);
  screen.print(sgr("2", "22")(`rein ${VERSION} · ${cwd}`));
  const prompt = () => screen.setLive({ ...editor.layout(sgr("1", "22")("› "), 2, screen.width, 3) });
  prompt();
  // The history (read, parsed, sometimes rewritten) waits until the prompt is up; keys typed meanwhile wait too.
  editor.addOlderHistory(loadHistory(historyFile));
  if (!terminal.listen()) {
    terminal.restore();
    screen.clear();
    const { UsageError } = await import("../app/args.ts");
    throw new UsageError('the interactive mode needs a terminal on stdin and stdout; for scripts use: rein -p "PROMPT"');
  }
  if (!args.trust) {
    await askTrustOnce(cwd, env, terminal, screen, sgr("1", "22"));
    prompt();
  }

  const { runTerminal } = await import("./term/run-terminal.ts");
  return runTerminal({ args, env, hooks, terminal, screen, editor, cwd, historyFile });
}

/**
 * Asks once per workspace whether its own tools and config may run, when it has any; the answer is
 * remembered. One key: y trusts, n or Enter does not; Ctrl-C or Escape decides nothing this time.
 */
async function askTrustOnce(cwd: string, env: Env, terminal: Terminal, screen: Screen, bold: (text: string) => string): Promise<void> {
  const root = findProjectRoot(cwd);
  const dataDir = reinPaths(env).dataDir;
  if (workspaceTrust(dataDir, root) !== "unknown") return;
  // Any extension configuration (.claude/, .mcp.json, opencode.json, .opencode/, .agents/, .rein/) is worth the question.
  const summary = trustSummary(root, env.HOME || homedir());
  if (summary.found.length === 0) return;
  const brings = summary.parts.length ? `it brings ${listed(summary.parts)}` : "it brings extension configuration";
  screen.print(bold(`Trust ${root}? From ${summary.found.join(", ")} ${brings}; trusting turns them on (they run code from the repository or loosen permissions).`));
  const question = "[y] yes, trust it  [n] no ";
  screen.setLive({ rows: [question], cursorRow: 0, cursorCol: question.length });
  const answer = await new Promise<boolean | undefined>((settle) =>
    terminal.onKeys((keys) => {
      for (const key of keys) {
        if (key.name === "text" && /^[yY]$/.test(key.text)) return settle(true);
        if ((key.name === "text" && /^[nN]$/.test(key.text)) || key.name === "enter") return settle(false);
        if (key.name === "ctrl-c" || key.name === "escape" || key.name === "ctrl-d") return settle(undefined);
      }
    }),
  );
  terminal.holdKeys();
  screen.print(answer === undefined ? "(not decided: asked again next time)" : answer ? "trusted" : "not trusted");
  if (answer !== undefined) rememberTrust(dataDir, root, answer);
}
