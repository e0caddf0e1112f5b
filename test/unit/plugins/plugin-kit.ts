// Plugin test folders: the fixture plugin (test/fixtures/plugins/kit, Claude Code's layout) or a
// hand-made one in a temp config folder's plugins/, and the loaders' inputs for them.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { activePlugins } from "../../../src/plugins/active.ts";
import { finishInstall, prepareInstall, type InstallPlaces } from "../../../src/plugins/install.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

export const KIT = resolve(import.meta.dir, "../../fixtures/plugins/kit");

export type PluginDirs = { dir: TempDir; configDir: string; dataDir: string; plugins: string; work: string; home: string };

export function pluginDirs(): PluginDirs {
  const dir = tempDir("rein-plugins-");
  const configDir = join(dir.path, "config");
  const work = join(dir.path, "work");
  mkdirSync(work, { recursive: true });
  return { dir, configDir, dataDir: join(dir.path, "data"), plugins: join(configDir, "plugins"), work, home: join(dir.path, "home") };
}

/** The fixture plugin copied into the plugins folder as `name`; returns its folder. */
export function copyKit(d: PluginDirs, name = "kit"): string {
  const root = join(d.plugins, name);
  cpSync(KIT, root, { recursive: true });
  return root;
}

export function put(file: string, content: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

export function active(d: PluginDirs, trusted = false) {
  return activePlugins({ configDir: d.configDir, dataDir: d.dataDir, trusted });
}

export const places = (d: PluginDirs) => ({ cwd: d.work, projectRoot: d.work, home: d.home, configDir: d.configDir, trusted: false });

/** Runs git in `dir` (no user config needed); throws with git's message when it fails. */
export function git(dir: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", "-c", "user.email=test@example.com", "-c", "user.name=test", "-c", "init.defaultBranch=main", ...args], { cwd: dir, stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString().trim();
}

/** `dir` made a git repository with everything in it committed; returns its file:// URL. */
export function gitRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  commitAll(dir, "first");
  return `file://${dir}`;
}

export function commitAll(dir: string, message: string): string {
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "--allow-empty", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

/** `rein plugin install SOURCE` as the command runs it (prepare, then finish); a failure throws its message. */
export function installOrThrow(source: string, where: InstallPlaces) {
  const prepared = prepareInstall(source, where);
  if ("error" in prepared) throw new Error(prepared.error);
  const done = finishInstall(prepared, where);
  if ("error" in done) throw new Error(done.error);
  return done;
}
