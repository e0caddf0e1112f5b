// A release folder served over HTTP on 127.0.0.1, and a runner for `curl .../install.sh | sh`.
import { copyFile, link, mkdir, mkdtemp, open, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { writeReleaseFolder } from "../../scripts/release.ts";

export type InstallRun = { code: number; stdout: string; stderr: string; home: string; bin: string; installed: string[] };

export type InstallOptions = {
  env?: Record<string, string>;
  /** The shell that runs the downloaded script (and the pipeline). */
  shell?: string;
  /** PATH seen by the script; defaults to this process's PATH, which never holds the install dir. */
  path?: string;
  /** Put the install dir first on PATH, as a user who already set it up would have it. */
  installDirOnPath?: boolean;
};

export class ReleaseServer {
  private constructor(
    readonly root: string,
    private readonly server: ReturnType<typeof Bun.serve>,
  ) {}

  /** Serves `root/<release>/<file>`; the folders are filled with `addRelease`. */
  static async start(): Promise<ReleaseServer> {
    const root = await mkdtemp(join(tmpdir(), "rein-install-"));
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        const path = decodeURIComponent(new URL(request.url).pathname);
        const file = Bun.file(join(root, "releases", path));
        if (path.includes("..") || !(await file.exists())) return new Response("not found\n", { status: 404 });
        return new Response(file);
      },
    });
    return new ReleaseServer(root, server);
  }

  url(release: string): string {
    return `http://127.0.0.1:${this.server.port}/${release}`;
  }

  /** A release folder with `binary` copied (or hard-linked) under `name`, SHA256SUMS listing `listed`. */
  async addRelease(release: string, files: { binary: string; name: string; hardLink?: boolean }[], listed = files.map((f) => f.name)): Promise<string> {
    const dir = join(this.root, "releases", release);
    await mkdir(dir, { recursive: true });
    for (const { binary, name, hardLink } of files) await (hardLink ? link : copyFile)(binary, join(dir, name));
    await writeReleaseFolder(dir, listed);
    return dir;
  }

  async install(release: string, options: InstallOptions = {}): Promise<InstallRun> {
    const shell = options.shell ?? "sh";
    const home = await mkdtemp(join(this.root, "home-"));
    const bin = join(home, "bin");
    const curl = Bun.which("curl") ?? "curl";
    const proc = Bun.spawn([shell, "-c", `"${curl}" -fsSL "$REIN_RELEASE_URL/install.sh" | ${shell}`], {
      env: {
        PATH: [options.installDirOnPath ? bin : [], options.path ?? process.env.PATH ?? "/usr/bin:/bin"].flat().join(delimiter),
        HOME: home,
        SHELL: "/bin/bash",
        REIN_RELEASE_URL: this.url(release),
        REIN_INSTALL_DIR: bin,
        ...options.env,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const installed = await readdir(bin).catch(() => []);
    return { code, stdout, stderr, home, bin, installed };
  }

  async stop(): Promise<void> {
    await this.server.stop(true);
    await rm(this.root, { recursive: true, force: true });
  }

  /** A folder of symlinks to every command on PATH except `missing`, to run the script without them. */
  async pathWithout(...missing: string[]): Promise<string> {
    const dir = await mkdtemp(join(this.root, "path-"));
    const seen = new Set(missing);
    for (const source of (process.env.PATH ?? "").split(delimiter)) {
      for (const name of await readdir(source).catch(() => [])) {
        if (seen.has(name)) continue;
        seen.add(name);
        await symlink(join(source, name), join(dir, name));
      }
    }
    return dir;
  }

  /** A folder with fake `uname`, `ldd` and `sysctl` that report another machine; prepend it to PATH. */
  async fakeMachine(os: string, arch: string, { musl = false, rosetta = false } = {}): Promise<string> {
    const dir = await mkdtemp(join(this.root, "machine-"));
    const script = (body: string) => `#!/bin/sh\n${body}\n`;
    await writeFile(join(dir, "uname"), script(`case "$1" in -s) echo '${os}' ;; -m) echo '${arch}' ;; *) echo '${os}' ;; esac`), { mode: 0o755 });
    await writeFile(join(dir, "ldd"), script(musl ? "echo 'musl libc (x86_64)' >&2; exit 1" : "echo 'ldd (Debian GLIBC 2.36) 2.36'"), { mode: 0o755 });
    await writeFile(join(dir, "sysctl"), script(rosetta ? "echo 1" : "exit 1"), { mode: 0o755 });
    return dir;
  }
}

/** Flips bytes in the middle of a file, the way a tampered download would differ. */
export async function flipBytes(path: string): Promise<void> {
  const handle = await open(path, "r+");
  try {
    const { size } = await handle.stat();
    const position = Math.floor(size / 2);
    const bytes = Buffer.alloc(16);
    await handle.read(bytes, 0, bytes.length, position);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (bytes[i] ?? 0) ^ 0xff;
    await handle.write(bytes, 0, bytes.length, position);
  } finally {
    await handle.close();
  }
}
