// scripts/install.sh end to end: `curl <url>/install.sh | sh` against a release folder served on
// 127.0.0.1 that holds the host binary (dist/rein) under this machine's release name.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { hostReleaseName } from "../../scripts/release.ts";
import { flipBytes, ReleaseServer } from "./install-fixture.ts";

const ROOT = join(import.meta.dir, "../..");
const BINARY = join(ROOT, "dist/rein");
const host = await hostReleaseName();
const hostIsMusl = host?.endsWith("-musl") ?? false;

let server: ReleaseServer;

beforeAll(async () => {
  if (!(await Bun.file(BINARY).exists())) {
    const build = Bun.spawn([process.execPath, "build.ts"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
    expect(await build.exited).toBe(0);
  }
  if (!host) throw new Error(`no rein release target for ${process.platform}-${process.arch}`);
  server = await ReleaseServer.start();
  await server.addRelease("good", [{ binary: BINARY, name: host }]);
  const tampered = await server.addRelease("tampered", [{ binary: BINARY, name: host }]);
  await flipBytes(join(tampered, host));
  await server.addRelease("unlisted", [{ binary: BINARY, name: host, hardLink: true }], []);
  await server.addRelease("empty", []);
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

async function expectRuns(binary: string): Promise<void> {
  const proc = Bun.spawn([binary, "--version"], { stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  expect(out.trim()).toBe(`rein ${pkg.version}`);
}

describe("install.sh", () => {
  test("installs the host binary, runs it and explains PATH", async () => {
    const run = await server.install("good");
    expect(run.stderr).toContain(`rein install: installed rein ${pkg.version} to ${run.bin}/rein`);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.installed).toEqual(["rein"]);
    expect((await stat(join(run.bin, "rein"))).mode & 0o777).toBe(0o755);
    await expectRuns(join(run.bin, "rein"));
    expect(run.stderr).toContain(`${run.bin} is not on your PATH`);
    expect(run.stderr).toContain("~/.bashrc");
    expect(run.stderr).toContain('export PATH="$HOME/bin:$PATH"');
  });

  test("gives no PATH hint when the install dir is already on PATH", async () => {
    const run = await server.install("good", { installDirOnPath: true });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("not on your PATH");
    await expectRuns(join(run.bin, "rein"));
  });

  test("refuses a tampered binary and installs nothing", async () => {
    const run = await server.install("tampered");
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`rein install: error: checksum did not match for ${host}`);
    expect(run.stderr).toContain("corrupt or tampered with");
    expect(run.installed).toEqual([]);
  });

  test("refuses a binary that SHA256SUMS does not list", async () => {
    const run = await server.install("unlisted");
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`SHA256SUMS has no entry for ${host}`);
    expect(run.installed).toEqual([]);
  });

  test("fails clearly when the release has no binary for this machine", async () => {
    const run = await server.install("empty");
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`rein install: error: could not download ${server.url("empty")}/${host}`);
    expect(run.installed).toEqual([]);
  });

  test("REIN_VERSION matching the release installs it", async () => {
    const run = await server.install("good", { env: { REIN_VERSION: `v${pkg.version}` } });
    expect(run.code).toBe(0);
    await expectRuns(join(run.bin, "rein"));
  });

  test("REIN_VERSION not matching the downloaded binary fails and installs nothing", async () => {
    const run = await server.install("good", { env: { REIN_VERSION: "99.0.0" } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`asked for version 99.0.0 but the downloaded binary reports 'rein ${pkg.version}'`);
    expect(run.installed).toEqual([]);
  });

  test.if(Bun.which("dash") !== null)("works under dash", async () => {
    const run = await server.install("good", { shell: "dash" });
    expect(run.code).toBe(0);
    await expectRuns(join(run.bin, "rein"));
  });

  test.if(Bun.which("wget") !== null)("falls back to wget without curl", async () => {
    const run = await server.install("good", { path: await server.pathWithout("curl") });
    expect(run.code).toBe(0);
    await expectRuns(join(run.bin, "rein"));
  });

  test("refuses to install when no checksum tool exists", async () => {
    const run = await server.install("good", { path: await server.pathWithout("sha256sum", "shasum") });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("neither sha256sum nor shasum is installed");
    expect(run.installed).toEqual([]);
  });
});

describe("install.sh machine detection", () => {
  const downloads = [
    { os: "Darwin", arch: "arm64", want: "rein-darwin-arm64" },
    { os: "Darwin", arch: "x86_64", want: "rein-darwin-x64" },
    { os: "Darwin", arch: "x86_64", rosetta: true, want: "rein-darwin-arm64" },
    { os: "Linux", arch: "aarch64", want: "rein-linux-arm64" },
    { os: "Linux", arch: "amd64", want: "rein-linux-x64" },
    { os: "Linux", arch: "x86_64", musl: true, want: "rein-linux-x64-musl" },
  ];
  for (const { os, arch, want, ...flags } of downloads) {
    // A musl host is detected by its loader on disk, which the fake ldd cannot hide.
    const skip = os === "Linux" && !flags.musl && hostIsMusl;
    test.skipIf(skip)(`${os} ${arch}${flags.musl ? " musl" : ""}${flags.rosetta ? " under Rosetta" : ""} downloads ${want}`, async () => {
      const fake = await server.fakeMachine(os, arch, flags);
      const run = await server.install("empty", { path: `${fake}:${process.env.PATH}` });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`could not download ${server.url("empty")}/${want}\n`);
    });
  }

  const refusals = [
    { os: "FreeBSD", arch: "amd64", message: "no rein build for the operating system 'FreeBSD'; see https://github.com/rein-dev/rein/releases" },
    { os: "MINGW64_NT-10.0-19045", arch: "x86_64", message: "download rein-windows-x64.exe from" },
    { os: "Linux", arch: "riscv64", message: "no rein build for the CPU architecture 'riscv64'" },
    { os: "Linux", arch: "aarch64", musl: true, message: "no rein build for musl on arm64" },
  ];
  for (const { os, arch, message, ...flags } of refusals) {
    test(`${os} ${arch}${flags.musl ? " musl" : ""} is refused with a pointer to the releases`, async () => {
      const fake = await server.fakeMachine(os, arch, flags);
      const run = await server.install("empty", { path: `${fake}:${process.env.PATH}` });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toContain("downloading");
    });
  }
});
