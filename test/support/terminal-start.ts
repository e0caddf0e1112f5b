// Starts the compiled binary in a tmux window against the fake model, in a git workspace of its own;
// shared by the terminal's e2e files.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeServer } from "../fake/server.ts";
import type { TempDir } from "./temp-dir.ts";
import type { Pane, tmuxServer } from "./tmux.ts";

export type Start = { name: string; columns?: number; rows?: number; env?: Record<string, string>; args?: string; ready?: string };

/** `start` opens rein in a new window; after it exits the pane shows EXIT=code and the tty's mode. */
export function terminalStarter(bin: string, server: ReturnType<typeof tmuxServer>, fake: () => FakeServer, dir: () => TempDir) {
  return async ({ name, columns = 120, rows = 40, env = {}, args = "", ready = "Ctrl-D exits" }: Start): Promise<{ pane: Pane; work: string; data: string }> => {
    const work = join(dir().path, name);
    mkdirSync(join(work, ".git"), { recursive: true });
    await Bun.write(join(work, ".git", "HEAD"), "ref: refs/heads/main\n");
    const data = join(dir().path, `${name}-data`);
    const vars = {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: fake().url,
      REIN_DATA_DIR: data,
      REIN_CONFIG_DIR: join(dir().path, `${name}-config`),
      NO_COLOR: "1",
      ...env,
    };
    const line = `env ${Object.entries(vars).map(([k, v]) => `${k}='${v}'`).join(" ")} ${bin} ${args}; echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon'; sleep 60`;
    const pane = server.open(line, work, columns, rows);
    await pane.until(ready);
    return { pane, work, data };
  };
}
