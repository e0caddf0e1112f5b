import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

type Env = Record<string, string | undefined>;

export type ReinPaths = {
  configDir: string;
  dataDir: string;
  userConfig: string;
  userTools: string;
  userInstructions: string;
  db: string;
  outputDir: string;
};

export type ProjectPaths = { config: string; tools: string };

/** Where rein keeps user-level files: `REIN_*_DIR`, then XDG, then the XDG defaults under HOME. */
export function reinPaths(env: Env): ReinPaths {
  const home = env.HOME || homedir();
  const configDir = env.REIN_CONFIG_DIR || join(xdgBase(env.XDG_CONFIG_HOME) ?? join(home, ".config"), "rein");
  const dataDir = env.REIN_DATA_DIR || join(xdgBase(env.XDG_DATA_HOME) ?? join(home, ".local", "share"), "rein");
  return {
    configDir,
    dataDir,
    userConfig: join(configDir, "config.json"),
    userTools: join(configDir, "tools"),
    userInstructions: join(configDir, "AGENTS.md"),
    db: join(dataDir, "rein.db"),
    outputDir: join(dataDir, "output"),
  };
}

export function projectPaths(root: string): ProjectPaths {
  return { config: join(root, ".rein", "config.json"), tools: join(root, ".rein", "tools") };
}

// The XDG Base Directory spec says a relative XDG_*_HOME is invalid and must be ignored.
function xdgBase(value: string | undefined): string | undefined {
  return value && isAbsolute(value) ? value : undefined;
}
