// The kernel sandbox (bubblewrap) around the bash tool: the argv it builds, what the session's
// setting asks for, and, with a real bwrap, what a command can write, reach and leave behind. The real-bwrap
// tests skip where bwrap is missing or cannot create a sandbox (user namespaces disabled).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import bash from "../../../tools/bash.ts";
import { isInside } from "../../../tools/lib/path-requests.ts";
import type { SandboxPolicy } from "../../../src/sdk.ts";
import { blockedWriteNote, sandboxArgv, sandboxAvailable, sandboxDecision } from "../../../tools/lib/sandbox.ts";
import { toolContext, type TestContext } from "../../support/tool-context.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

/** Digits that make this run's sleep commands its own: a test run in another checkout kills only its own. */
const RUN = String(process.pid).padStart(7, "0");

const available = sandboxAvailable();
const git = Bun.which("git");

let dir: TempDir;
beforeAll(() => {
  dir = tempDir("rein-sandbox-");
});
afterAll(() => dir.remove());

/** Sets environment variables (undefined deletes) until the returned function restores them. */
function setEnv(vars: Record<string, string | undefined>): () => void {
  const saved = Object.entries(vars).map(([name]) => [name, process.env[name]] as const);
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** The session's sandbox as the bash tool gets it in its context. */
function policy(mode: SandboxPolicy["mode"], more: Partial<SandboxPolicy> = {}): { sandbox: SandboxPolicy } {
  return { sandbox: { mode, network: false, readOnly: false, masked: [], ...more } };
}

/** A folder holding only a `bash` link: a PATH on which bash runs and bwrap is missing. */
function pathWithoutBwrap(): string {
  const bin = join(dir.path, "bin-without-bwrap");
  mkdirSync(bin, { recursive: true });
  if (!existsSync(join(bin, "bash"))) symlinkSync(Bun.which("bash")!, join(bin, "bash"));
  return bin;
}

async function run(input: { command: string; timeout?: number }, ctx: TestContext) {
  const result = await bash.run(input, ctx);
  return typeof result === "string" ? { output: result, isError: false } : { output: result.output, isError: result.isError === true };
}

/** Pids of live processes whose command line contains `marker`. */
function running(marker: string): number[] {
  return Bun.spawnSync(["pgrep", "-f", marker]).stdout.toString().split("\n").filter(Boolean).map(Number);
}

function killAll(marker: string): void {
  for (const pid of running(marker)) process.kill(pid, "SIGKILL");
}

/** The index of `flag` followed by `args` in argv, or -1. */
function at(argv: string[], flag: string, ...args: string[]): number {
  return argv.findIndex((item, i) => item === flag && args.every((arg, j) => argv[i + 1 + j] === arg));
}

describe("the bwrap command line", () => {
  test("a read-only root, the workspace and temp folder writable, git's hooks and config read-only after them, no network", () => {
    const ws = join(dir.path, "argv-ws");
    const tmp = join(dir.path, "argv-tmp");
    mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
    writeFileSync(join(ws, ".git", "config"), "");
    mkdirSync(tmp, { recursive: true });
    const real = realpathSync(ws);

    const argv = sandboxArgv(["bash", "-c", "true"], { workspace: ws, tmp, network: false });

    expect(argv[0]).toBe("bwrap");
    expect(at(argv, "--ro-bind", "/", "/")).toBe(1);
    expect(at(argv, "--proc", "/proc")).toBeGreaterThan(0);
    expect(at(argv, "--bind", realpathSync(tmp), realpathSync(tmp))).toBeGreaterThan(0);
    const workspace = at(argv, "--bind", real, real);
    const gitDir = at(argv, "--bind", `${real}/.git`, `${real}/.git`);
    expect(workspace).toBeGreaterThan(0);
    expect(gitDir).toBeGreaterThan(workspace);
    expect(at(argv, "--ro-bind", `${real}/.git/hooks`, `${real}/.git/hooks`)).toBeGreaterThan(gitDir);
    expect(at(argv, "--ro-bind", `${real}/.git/config`, `${real}/.git/config`)).toBeGreaterThan(gitDir);
    expect(argv).toContain("--unshare-net");
    expect(argv).toContain("--unshare-pid");
    expect(at(argv, "--chdir", ws)).toBeGreaterThan(0);
    expect(argv.slice(-3)).toEqual(["bash", "-c", "true"]);
    expect(argv.slice(argv.indexOf("--"), argv.indexOf("--") + 3)).toEqual(["--", "sh", "-c"]);
  });

  test("the network stays when allowed; a missing writable folder is left out; parents are bound before children", () => {
    const ws = join(dir.path, "argv-nested");
    mkdirSync(join(ws, "tmp"), { recursive: true });
    const real = realpathSync(ws);

    const argv = sandboxArgv(["true"], { workspace: ws, tmp: join(ws, "tmp"), network: true, writable: [join(dir.path, "no-such-folder")] });

    expect(argv).not.toContain("--unshare-net");
    expect(argv.join(" ")).not.toContain("no-such-folder");
    expect(at(argv, "--bind", real, real)).toBeLessThan(at(argv, "--bind", `${real}/tmp`, `${real}/tmp`));
    expect(argv.join(" ")).not.toContain(".git"); // no git folder, nothing to protect
  });

  test("a symlinked workspace is bound at its real path", () => {
    const target = join(dir.path, "argv-target");
    const link = join(dir.path, "argv-link");
    mkdirSync(target, { recursive: true });
    symlinkSync(target, link);
    const real = realpathSync(target);

    const argv = sandboxArgv(["true"], { workspace: link, tmp: dir.path, network: false });

    expect(at(argv, "--bind", real, real)).toBeGreaterThan(0);
    expect(at(argv, "--bind", link, link)).toBe(-1);
  });

  test("a linked worktree protects the hooks and config of the repository it belongs to", () => {
    const main = join(dir.path, "argv-main");
    const tree = join(main, "trees", "feature");
    const gitDir = join(main, ".git", "worktrees", "feature");
    mkdirSync(join(main, ".git", "hooks"), { recursive: true });
    writeFileSync(join(main, ".git", "config"), "");
    mkdirSync(gitDir, { recursive: true });
    writeFileSync(join(gitDir, "commondir"), "../..\n");
    mkdirSync(tree, { recursive: true });
    writeFileSync(join(tree, ".git"), `gitdir: ${gitDir}\n`);
    const common = realpathSync(join(main, ".git"));

    // The main repository lies outside this workspace but inside the writable temp folder.
    const argv = sandboxArgv(["true"], { workspace: tree, tmp: main, network: false });

    expect(at(argv, "--ro-bind", `${common}/hooks`, `${common}/hooks`)).toBeGreaterThan(0);
    expect(at(argv, "--ro-bind", `${common}/config`, `${common}/config`)).toBeGreaterThan(0);
  });
});

describe("the session's sandbox setting", () => {
  test("off runs unsandboxed; on and auto run in the sandbox where it works; a read-only call gets the read-only one, without network", () => {
    expect(sandboxDecision(policy("off").sandbox)).toEqual({ use: false });
    if (!available.ok) return;
    expect(sandboxDecision(policy("on", { network: true }).sandbox)).toEqual({ use: true, readOnly: false, network: true });
    expect(sandboxDecision(policy("auto").sandbox)).toEqual({ use: true, readOnly: false, network: false });
    expect(sandboxDecision(policy("off", { readOnly: true, network: true }).sandbox)).toEqual({ use: true, readOnly: true, network: false });
  });

  test("a blocked write gets a note only when the output shows one", () => {
    expect(blockedWriteNote("bash: /usr/x: Read-only file system\n")).toStartWith("[the sandbox blocked a write");
    expect(blockedWriteNote("error: could not write config file .git/config: Device or resource busy")).toBeDefined();
    expect(blockedWriteNote("umount: /mnt: Device or resource busy")).toBeUndefined();
    expect(blockedWriteNote("all good")).toBeUndefined();
  });

  describe("without bwrap on PATH", () => {
    let restore: () => void;
    beforeAll(() => {
      restore = setEnv({ PATH: pathWithoutBwrap() });
    });
    afterAll(() => restore());

    test("on: the command does not run, and the error says how to get the sandbox", async () => {
      const marker = join(dir.path, "ran-without-sandbox");
      const result = await run({ command: `echo ran > ${marker}` }, toolContext(dir.path, policy("on")));

      expect(result.isError).toBe(true);
      expect(result.output).toContain("the sandbox is on but unavailable: bubblewrap is not installed");
      expect(result.output).toContain("install bubblewrap: sudo ");
      expect(existsSync(marker)).toBe(false);
    });

    test("a bwrap that cannot create a sandbox (user namespaces disabled) is unavailable, with its reason", async () => {
      const fake = join(dir.path, "bin-failing-bwrap");
      mkdirSync(fake, { recursive: true });
      writeFileSync(join(fake, "bwrap"), "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n", { mode: 0o755 });
      const undo = setEnv({ PATH: `${fake}:${process.env.PATH}` });
      try {
        expect(sandboxAvailable()).toEqual({
          ok: false,
          reason: "bwrap is installed but cannot create a sandbox here (bwrap: setting up uid map: Permission denied)",
          hint: expect.stringContaining("allow unprivileged user namespaces"),
        });
        const result = await run({ command: "echo ran" }, toolContext(dir.path, policy("on")));
        expect(result.isError).toBe(true);
        expect(result.output).toContain("cannot create a sandbox here");
      } finally {
        undo();
      }
    });

    test("auto: the command runs unsandboxed, with a note on each session's first call only", async () => {
      const first = await run({ command: "echo hello" }, toolContext(dir.path, policy("auto")));
      const second = await run({ command: "echo again" }, toolContext(dir.path, policy("auto")));

      expect(first.isError).toBe(false);
      expect(first.output).toStartWith("hello\n[sandbox unavailable: bubblewrap is not installed");
      expect(first.output).toContain("install bubblewrap: sudo ");
      expect(second).toEqual({ output: "again\n", isError: false });
      const otherSession = await run({ command: "echo other" }, toolContext(dir.path, { ...policy("auto"), sessionId: "s_other" }));
      expect(otherSession.output).toStartWith("other\n[sandbox unavailable");
    });
  });
});

describe.skipIf(!available.ok)(`commands in the sandbox (${available.ok ? `bubblewrap ${available.version}` : "skipped: no usable bwrap"})`, () => {
  // The workspace, the temp folder (TMPDIR) and a folder outside both are siblings, so nothing here
  // is writable through another binding, and a broken sandbox would write only inside `dir`.
  let ws: string;
  let tmp: string;
  let outside: string;
  let restore: () => void;
  beforeAll(() => {
    ws = join(dir.path, "ws");
    tmp = join(dir.path, "tmp");
    outside = join(dir.path, "outside");
    for (const path of [ws, tmp, outside]) mkdirSync(path, { recursive: true });
    if (git) Bun.spawnSync([git, "init", "-q", ws]);
    else mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
    writeFileSync(join(ws, ".git", "config"), "[core]\n\tbare = false\n");
    restore = setEnv({ TMPDIR: tmp });
  });
  afterAll(() => restore());

  const sandboxed = (command: string, ctx: TestContext = toolContext(ws, policy("on"))) => run({ command }, ctx);

  test("the workspace and the temp folder are writable, and what is written there stays", async () => {
    const result = await sandboxed(`echo in > inside.txt && echo tmp > "$TMPDIR/temp.txt" && cat inside.txt "$TMPDIR/temp.txt"`);

    expect(result).toEqual({ output: "in\ntmp\n", isError: false });
    expect(readFileSync(join(ws, "inside.txt"), "utf8")).toBe("in\n");
    expect(readFileSync(join(tmp, "temp.txt"), "utf8")).toBe("tmp\n");
  });

  test("a write outside fails as a read-only file system, and the result says the sandbox blocked it", async () => {
    const home = process.env.HOME;
    const inHome = home && !isInside(home, ws) && !isInside(home, tmp) ? join(home, `.rein-sandbox-test-${process.pid}`) : undefined;
    try {
      const result = await sandboxed(`echo x > ${outside}/file.txt; ${inHome ? `echo x > ${inHome}; ` : ""}echo done`);

      expect(result.isError).toBe(false); // the command ran; its write failed
      expect(result.output).toContain(`${outside}/file.txt: Read-only file system`);
      expect(result.output).toContain("done\n[the sandbox blocked a write (read-only file system)");
      expect(result.output).toContain("ask them to allow it or to run rein without --sandbox]");
      expect(existsSync(join(outside, "file.txt"))).toBe(false);
      if (inHome) expect(existsSync(inHome)).toBe(false);
    } finally {
      if (inHome) rmSync(inHome, { force: true });
    }
  });

  test(".git/hooks and .git/config are read-only, the rest of .git is writable, and .git cannot be moved aside", async () => {
    const config = readFileSync(join(ws, ".git", "config"), "utf8");

    const result = await sandboxed(
      "echo evil > .git/hooks/pre-commit; echo evil >> .git/config; mv .git .git-aside; mv .git/hooks .git/hooks-aside; " +
        "echo ok > .git/rein-test && cat .git/rein-test",
    );

    expect(result.output).toContain(".git/hooks/pre-commit: Read-only file system");
    expect(result.output).toContain(".git/config: Read-only file system");
    expect(result.output).toContain("Device or resource busy");
    expect(result.output).toContain("ok\n[the sandbox blocked a write");
    expect(existsSync(join(ws, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(readFileSync(join(ws, ".git", "config"), "utf8")).toBe(config);
    expect(existsSync(join(ws, ".git-aside"))).toBe(false);
    expect(existsSync(join(ws, ".git", "hooks-aside"))).toBe(false);
    expect(existsSync(join(ws, ".git", "rein-test"))).toBe(true);
  });

  test.skipIf(!git)("git itself can commit but not change its config, and the result says why", async () => {
    const result = await sandboxed(
      "echo a > tracked.txt && git add tracked.txt && git -c user.name=t -c user.email=t@example.com commit -qm first && git log --format=%s; " +
        "git config user.name someone",
    );

    expect(result.output).toStartWith("Exit code 4\nfirst\n");
    expect(result.output).toContain("could not write config file .git/config: Device or resource busy");
    expect(result.output).toContain("[the sandbox blocked a write");
  });

  test("the network is cut unless the session's sandbox lets it through", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${server.port} && echo connected`;
    try {
      const cut = await sandboxed(connect);
      const allowed = await sandboxed(connect, toolContext(ws, policy("on", { network: true })));

      expect(cut.output).not.toContain("connected");
      expect(cut.output).toContain("Connection refused");
      expect(allowed).toEqual({ output: "connected\n", isError: false });
    } finally {
      server.stop(true);
    }
  });

  test("the command sees only its own processes, so no /proc/<pid>/root leads outside", async () => {
    // Without a process namespace this write would land: /proc/<pid>/root of rein is the host's root.
    const escape = `${outside}/escaped.txt`;
    const result = await sandboxed(`ls /proc | grep -c '^[0-9]'; echo x > /proc/${process.pid}/root${escape}`);

    // The write fails, so the result begins with its exit code (a failed call), then the count.
    expect(result.output).toStartWith("Exit code ");
    expect(Number.parseInt(result.output.split("\n")[1]!)).toBeLessThan(10);
    expect(existsSync(escape)).toBe(false);
  });

  test("an abort kills everything inside promptly", async () => {
    const marker = `sleep 88.8${RUN}`;
    let started!: () => void;
    const output = new Promise<void>((resolve) => (started = resolve));
    const ctx = toolContext(ws, { output: () => started(), ...policy("on") });
    try {
      const result = sandboxed(`echo started; ${marker} & ${marker}`, ctx);
      await output;
      const abortedAt = performance.now();
      ctx.abort();

      expect(await result).toEqual({ output: "started\n[killed: interrupted]", isError: true });
      expect(performance.now() - abortedAt).toBeLessThan(1000);
      expect(running(marker)).toEqual([]);
    } finally {
      killAll(marker);
    }
  });

  test("a timeout kills everything inside, even a process that left the process group", async () => {
    const marker = `sleep 88.9${RUN}`;
    try {
      const result = await run({ command: `setsid ${marker} & echo started; ${marker}`, timeout: 1000 }, toolContext(ws, policy("on")));

      expect(result).toEqual({ output: "started\n[killed: timed out after 1s]", isError: true });
      expect(running(marker)).toEqual([]);
    } finally {
      killAll(marker);
    }
  });

  test("a stopped command's children still get SIGTERM first and can clean up", async () => {
    // Like git removing its index.lock: a grandchild of the shell traps SIGTERM and writes a file.
    const marker = `sleep 88.7${RUN}`;
    const cleaned = join(ws, "cleaned.txt");
    let started!: () => void;
    const output = new Promise<void>((resolve) => (started = resolve));
    const ctx = toolContext(ws, { output: () => started(), ...policy("on") });
    try {
      const result = sandboxed(`(trap 'echo cleaned > ${cleaned}; exit 0' TERM; echo started; ${marker} & wait); echo after`, ctx);
      await output;
      ctx.abort();
      await result;

      expect(existsSync(cleaned)).toBe(true);
      expect(running(marker)).toEqual([]);
    } finally {
      killAll(marker);
    }
  });
});

describe.skipIf(!available.ok)("a call allowed only because the analysis found it read-only", () => {
  // The workspace holds a file to read; a fake home beside it holds credentials to mask.
  let ws: string;
  let home: string;
  let outside: string;
  const readOnly = (masked: string[] = []) => toolContext(ws, policy("off", { readOnly: true, masked }));
  beforeAll(() => {
    ws = join(dir.path, "ro-ws");
    home = join(dir.path, "ro-home");
    outside = join(dir.path, "ro-outside");
    for (const path of [ws, join(home, ".ssh"), outside]) mkdirSync(path, { recursive: true });
    writeFileSync(join(ws, "notes.txt"), "hello\n");
    writeFileSync(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
    writeFileSync(join(home, ".netrc"), "machine example.com password hunter2\n");
  });

  test("reads as usual but writes nothing, the workspace included, and the note says why", async () => {
    const result = await run(
      { command: `cat notes.txt; echo x > made.txt; touch ${outside}/made.txt; rm notes.txt; echo tmp > "$TMPDIR/t" && cat "$TMPDIR/t"` },
      readOnly(),
    );

    expect(result.output).toStartWith("hello\n");
    expect(result.output).toContain("made.txt: Read-only file system");
    expect(result.output).toContain("tmp\n"); // a private temp folder, gone when the command ends
    expect(result.output).toContain("rein's analysis found it read-only, so nothing was writable");
    expect(existsSync(join(ws, "made.txt"))).toBe(false);
    expect(existsSync(join(outside, "made.txt"))).toBe(false);
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe("hello\n");
  });

  test("a program that an option runs (the kind the tables can get wrong) deletes nothing", async () => {
    // `sort --compress-program` and `rg --pre` run a program of the line's choosing; here it tries to delete.
    const result = await run({ command: `printf 'b\\na\\n' | sort --compress-program=sh -o sorted.txt; sh -c 'rm -f notes.txt'; ls` }, readOnly());

    expect(result.output).toContain("Read-only file system");
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe("hello\n");
    expect(existsSync(join(ws, "sorted.txt"))).toBe(false);
  });

  test("the masked credentials read as empty, folders and files alike", async () => {
    const masked = [join(home, ".ssh"), join(home, ".netrc")].map((path) => realpathSync(path));
    const result = await run({ command: `ls -A ${home}/.ssh; cat ${home}/.netrc ${home}/.ssh/id_ed25519; echo end` }, readOnly(masked));

    expect(result.output).not.toContain("PRIVATE KEY");
    expect(result.output).not.toContain("hunter2");
    expect(result.output).not.toContain("id_ed25519\n");
    expect(result.output).toContain("end\n");
  });

  test("has no network, even when the session's sandbox lets it through", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
    try {
      const ctx = toolContext(ws, policy("on", { readOnly: true, network: true }));
      const result = await run({ command: `exec 3<>/dev/tcp/127.0.0.1/${server.port} && echo connected` }, ctx);

      expect(result.output).not.toContain("connected");
    } finally {
      server.stop(true);
    }
  });

  test("without a usable bwrap it runs as the session's setting says (the analysis holds alone)", async () => {
    const restore = setEnv({ PATH: pathWithoutBwrap() });
    try {
      // only bash is on this PATH: builtins write and read back
      const result = await run({ command: "echo x > unsandboxed.txt && read -r line < unsandboxed.txt && echo $line" }, readOnly());

      expect(result).toEqual({ output: "x\n", isError: false });
    } finally {
      restore();
      rmSync(join(ws, "unsandboxed.txt"), { force: true });
    }
  });
});
