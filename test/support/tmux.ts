// A real terminal for tests: a private tmux server runs the compiled binary; send-keys types,
// capture-pane reads the screen. A terminal has no event to await, so waits poll the screen.
import { expect } from "bun:test";

export const hasTmux = Bun.spawnSync(["sh", "-c", "command -v tmux"]).exitCode === 0;

export type Pane = {
  name: string;
  keys(...keys: string[]): void;
  /** the visible screen; `escapes` keeps colour codes, `joined` joins wrapped lines */
  screen(options?: { escapes?: boolean; joined?: boolean; history?: boolean }): string;
  /** waits until the screen shows `text`, and returns the screen */
  until(text: string | RegExp, timeoutMs?: number): Promise<string>;
  /** the pid of the pane's first process (the binary itself when started with `exec`) */
  pid(): number;
  resize(columns: number, rows: number): void;
  /** pastes `text`, wrapped in bracketed-paste markers unless `bracketed` is false (an older terminal) */
  paste(text: string, bracketed?: boolean): void;
  kill(): void;
};

export function tmuxServer(name: string) {
  const socket = `rein-${name}-${process.pid}`;
  const tmux = (...args: string[]) => Bun.spawnSync(["tmux", "-L", socket, ...args], { stdout: "pipe", stderr: "pipe" }).stdout.toString();
  let count = 0;
  return {
    tmux,
    /** starts `command` (a shell line) in a new window of `columns` x `rows` in `cwd` */
    open(command: string, cwd: string, columns = 120, rows = 40): Pane {
      const id = `p${++count}`;
      tmux("new-session", "-d", "-s", id, "-x", String(columns), "-y", String(rows), "-c", cwd, command);
      const screen: Pane["screen"] = (o = {}) =>
        tmux("capture-pane", "-t", id, "-p", ...(o.escapes ? ["-e"] : []), ...(o.joined ? ["-J"] : []), ...(o.history ? ["-S", "-"] : []));
      return {
        name: id,
        keys: (...keys) => void tmux("send-keys", "-t", id, ...keys),
        screen,
        async until(text, timeoutMs = 10_000) {
          const deadline = Date.now() + timeoutMs;
          const seen = (s: string) => (typeof text === "string" ? s.includes(text) : text.test(s));
          while (Date.now() < deadline) {
            const shown = screen({ joined: true });
            if (seen(shown)) return shown;
            await Bun.sleep(40);
          }
          const shown = screen({ joined: true });
          expect(shown, `screen never showed ${text}`).toMatch(typeof text === "string" ? new RegExp(escape(text)) : text);
          return shown;
        },
        pid: () => Number(tmux("list-panes", "-t", id, "-F", "#{pane_pid}").trim()),
        resize: (columns, rows) => void tmux("resize-window", "-t", id, "-x", String(columns), "-y", String(rows)),
        paste(text, bracketed = true) {
          const buffer = `b${id}`;
          Bun.spawnSync(["tmux", "-L", socket, "load-buffer", "-b", buffer, "-"], { stdin: Buffer.from(text) });
          tmux("paste-buffer", ...(bracketed ? ["-p"] : []), "-b", buffer, "-t", id);
        },
        kill: () => void tmux("kill-session", "-t", id),
      };
    },
    // Without tmux the tests skip, but afterAll still runs: nothing to close then.
    close: () => void (hasTmux && tmux("kill-server")),
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
