import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LoadOptions, loadConfig, type Overrides } from "../../../src/config/load.ts";

/** A throwaway user config dir and project root in a real temp directory. */
export type Workspace = {
  configDir: string;
  project: string;
  userFile: string;
  projectFile: string;
  env: Record<string, string | undefined>;
  writeUser(content: unknown): void;
  writeProject(content: unknown): void;
  load(extra?: { env?: Record<string, string | undefined>; overrides?: Overrides }): ReturnType<typeof loadConfig>;
  remove(): void;
};

export function makeWorkspace(): Workspace {
  const root = mkdtempSync(join(tmpdir(), "rein-config-"));
  const configDir = join(root, "config");
  const project = join(root, "project");
  mkdirSync(configDir);
  mkdirSync(join(project, ".rein"), { recursive: true });
  const userFile = join(configDir, "config.json");
  const projectFile = join(project, ".rein", "config.json");
  const env = { REIN_CONFIG_DIR: configDir, HOME: join(root, "home") };
  const write = (file: string, content: unknown) =>
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return {
    configDir,
    project,
    userFile,
    projectFile,
    env,
    writeUser: (content) => write(userFile, content),
    writeProject: (content) => write(projectFile, content),
    load: (extra = {}) => {
      const options: LoadOptions = {
        cwd: project,
        projectRoot: project,
        env: { ...env, ...extra.env },
        overrides: extra.overrides ?? {},
      };
      return loadConfig(options);
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The error thrown by `run`, so tests can assert on its message and fields. */
export function thrown(run: () => unknown): Error & { file?: string; key?: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error("expected an error, but none was thrown");
}
