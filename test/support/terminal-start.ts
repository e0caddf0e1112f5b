// The terminal's e2e files share this: a tmux server, the fake model and a temp folder for the
// file's tests (set up and torn down with it), and `start`, which opens the compiled binary in a
// new tmux window in a git workspace of its own.
import { afterAll, beforeAll, beforeEach } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { startFakeAnthropic, type FakeServer } from "../fake/server.ts";
import { tempDir, type TempDir } from "./temp-dir.ts";
import { tmuxServer, type Pane } from "./tmux.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const BIN = join(ROOT, "dist/rein");

export type Start = { name: string; columns?: number; rows?: number; env?: Record<string, string>; args?: string; ready?: string };

export function terminalSuite(name: string) {
  let fake: FakeServer | undefined;
  let dir: TempDir | undefined;
  const server = tmuxServer(name);
  beforeAll(async () => {
    if (!existsSync(BIN)) Bun.spawnSync(["bun", "build.ts"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
    fake = await startFakeAnthropic();
    dir = tempDir(`rein-${name}-`);
  });
  // A failed test must not leave its scripted replies to the next one.
  beforeEach(() => fake?.reset());
  afterAll(async () => {
    server.close();
    await fake?.close();
    dir?.remove();
  });
  const suite = {
    server,
    get fake(): FakeServer {
      return fake!;
    },
    get dir(): TempDir {
      return dir!;
    },
    /** rein in a new window; after it exits the pane shows EXIT=code and the tty's mode. */
    async start({ name, columns = 120, rows = 40, env = {}, args = "", ready = "Ctrl-D exits" }: Start): Promise<{ pane: Pane; work: string; data: string }> {
      const work = join(suite.dir.path, name);
      mkdirSync(join(work, ".git"), { recursive: true });
      await Bun.write(join(work, ".git", "HEAD"), "ref: refs/heads/main\n");
      const data = join(suite.dir.path, `${name}-data`);
      const vars = {
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: suite.fake.url,
        REIN_DATA_DIR: data,
        REIN_CONFIG_DIR: join(suite.dir.path, `${name}-config`),
        NO_COLOR: "1",
        ...env,
      };
      const line = `env ${Object.entries(vars).map(([k, v]) => `${k}='${v}'`).join(" ")} ${BIN} ${args}; echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon'; sleep 60`;
      const pane = server.open(line, work, columns, rows);
      await pane.until(ready);
      return { pane, work, data };
    },
  };
  return suite;
}
