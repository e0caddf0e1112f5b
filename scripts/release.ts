// The release folder that scripts/install.sh downloads from: one binary per target, SHA256SUMS and
// install.sh itself. `bun run build --release` calls buildRelease("dist/release").
import { copyFile, mkdir, readdir, rm, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { compile, smokeRun, type Target } from "../build.ts";

/** Release file name -> bun compile target. install.sh derives the same names from uname. */
export const RELEASE_TARGETS = {
  "rein-linux-x64": "bun-linux-x64",
  "rein-linux-x64-musl": "bun-linux-x64-musl",
  "rein-linux-arm64": "bun-linux-arm64",
  "rein-darwin-x64": "bun-darwin-x64",
  "rein-darwin-arm64": "bun-darwin-arm64",
  "rein-windows-x64.exe": "bun-windows-x64",
} as const satisfies Record<string, Target>;

export type ReleaseName = keyof typeof RELEASE_TARGETS;

const INSTALL_SCRIPT = join(import.meta.dir, "install.sh");

export async function buildRelease(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const names = Object.keys(RELEASE_TARGETS) as ReleaseName[];
  for (const name of names) await compileTarget(join(dir, name), RELEASE_TARGETS[name]);

  const host = await hostReleaseName();
  if (host) await smokeRun(join(dir, host));
  else console.error(`no release target runs on ${process.platform}-${process.arch}: nothing was smoke-run`);

  await writeReleaseFolder(dir, names);
  console.error(`release folder ready: ${dir}`);
}

/** Writes `dir/SHA256SUMS` (sha256sum format) for `files`, binaries already in `dir`, and copies install.sh next to them. */
export async function writeReleaseFolder(dir: string, files: string[]): Promise<void> {
  const lines: string[] = [];
  for (const name of [...files].sort()) {
    if (basename(name) !== name) throw new Error(`release files are names inside ${dir}, not paths: ${name}`);
    lines.push(`${await sha256File(join(dir, name))}  ${name}\n`);
  }
  await Bun.write(join(dir, "SHA256SUMS"), lines.join(""));
  await copyFile(INSTALL_SCRIPT, join(dir, "install.sh"));
}

/** The release file this machine runs, or undefined when there is no build for it. */
export async function hostReleaseName(): Promise<ReleaseName | undefined> {
  const { platform, arch } = process;
  if (platform === "win32") return arch === "x64" ? "rein-windows-x64.exe" : undefined;
  if (platform !== "linux" && platform !== "darwin") return undefined;
  if (arch !== "x64" && arch !== "arm64") return undefined;
  if (platform === "linux" && (await isMusl())) return arch === "x64" ? "rein-linux-x64-musl" : undefined;
  return `rein-${platform}-${arch}`;
}

async function compileTarget(outfile: string, target: Target): Promise<void> {
  const started = performance.now();
  try {
    await compile(outfile, target);
  } catch (error) {
    // Cross-compiling downloads the target's bun runtime; offline or blocked machines fail here,
    // with the reason ("Failed to download 'bun-...': ConnectionRefused") inside an AggregateError.
    const causes = error instanceof AggregateError ? error.errors : [error];
    const reason = causes.map((cause) => (cause instanceof Error ? cause.message : String(cause))).join("; ");
    throw new Error(`release target ${target} (${basename(outfile)}) could not be built: ${reason}`, { cause: error });
  }
  const { size } = await stat(outfile);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.error(`compiled ${outfile} (${target}, ${(size / 2 ** 20).toFixed(0)} MiB, ${seconds} s)`);
}

async function sha256File(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
  return hasher.digest("hex");
}

// Same test as install.sh: musl's dynamic loader lives at /lib/ld-musl-<arch>.so.1.
async function isMusl(): Promise<boolean> {
  const entries = await readdir("/lib").catch(() => []);
  return entries.some((entry) => entry.startsWith("ld-musl-"));
}
