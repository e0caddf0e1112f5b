// The bash tool against a real bash: merged output, exit status, environment, and the bad inputs
// (endless output, a command that never ends, background children) that must not hurt rein.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { PROVIDER_KEY_ENV } from "../../../src/llm/provider-keys.ts";
import { childEnv } from "../../../src/permission/child-env.ts";
import bash from "../../../tools/bash.ts";
import { toolContext, type TestContext } from "../../support/tool-context.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";

/** Digits that make this run's sleep commands its own: a test run in another checkout kills only its own. */
const RUN = String(process.pid).padStart(7, "0");

let dir: TempDir;
beforeAll(() => {
  dir = tempDir("rein-bash-");
});
afterAll(() => dir.remove());

async function run(input: { command: string; timeout?: number }, ctx: TestContext = toolContext(dir.path)) {
  const result = await bash.run(input, ctx);
  return typeof result === "string" ? { output: result, isError: false } : { output: result.output, isError: result.isError === true };
}

/** A context whose promise resolves with the first streamed chunk. */
function watched(toolUseId = "toolu_watched") {
  let first!: () => void;
  const started = new Promise<void>((resolve) => (first = resolve));
  const ctx = toolContext(dir.path, { toolUseId });
  const collect = ctx.output;
  ctx.output = (chunk) => (collect(chunk), first());
  return { ctx, started };
}

/** Pids of live processes whose command line contains `marker` (zombies have none). */
function running(marker: string): number[] {
  const pgrep = Bun.spawnSync(["pgrep", "-f", marker]);
  return pgrep.stdout.toString().split("\n").filter(Boolean).map(Number);
}

function killAll(marker: string): void {
  for (const pid of running(marker)) process.kill(pid, "SIGKILL");
}

describe("what the command prints and how it ends", () => {
  test("stdout and stderr arrive merged in the order written", async () => {
    const result = await run({ command: "echo a; echo b >&2; echo c; echo d >&2" });
    expect(result).toEqual({ output: "a\nb\nc\nd\n", isError: false });
  });

  test("a nonzero exit is a failed call whose result begins with its exit code, as in Claude Code", async () => {
    const result = await run({ command: "echo out; echo err >&2; exit 3" });
    expect(result).toEqual({ output: "Exit code 3\nout\nerr\n", isError: true });
  });

  test("a shell killed by a signal says which", async () => {
    const result = await run({ command: "echo before; kill -TERM $$" });
    expect(result.output).toBe("before\n[killed by SIGTERM]");
  });

  test("a syntax error on the first line still reaches the output; line numbers are the command's", async () => {
    const first = await run({ command: "echo (" });
    expect(first.output).toContain("syntax error");
    expect(first.output).toStartWith("Exit code 2\n");

    const later = await run({ command: "true\nno_such_command_xyz" });
    expect(later.output).toContain("line 2: no_such_command_xyz: command not found");
    expect(later.output).toStartWith("Exit code 127\n");
  });

  test("it runs in ctx.cwd with stdin at EOF, so a read never hangs", async () => {
    const result = await run({ command: "pwd; cat; read -r line; echo read=$?" });
    expect(result.output).toBe(`${realpathSync(dir.path)}\nread=1\n`);
  });

  test("timeouts outside 1 s..10 min are rejected by the schema", () => {
    expect(v.safeParse(bash.input, { command: "true", timeout: 999 }).success).toBe(false);
    expect(v.safeParse(bash.input, { command: "true", timeout: 600_001 }).success).toBe(false);
    expect(v.safeParse(bash.input, { command: "true", timeout: 600_000 }).success).toBe(true);
  });
});

describe("the child's environment", () => {
  // What a real bash sees of an environment built the way a session builds it (childEnv).
  const parent = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ANTHROPIC_API_KEY: "sk-ant-test-secret",
    ANTHROPIC_AUTH_TOKEN: "auth-secret",
    REIN_SERVER_TOKEN: "server-secret",
    REIN_OTHER_KEY: "other-secret",
    GITHUB_TOKEN: "gh-secret",
    NPM_TOKEN: "npm-secret",
    OPENAI_API_KEY: "openai-secret",
    AWS_ACCESS_KEY_ID: "aws-id-secret",
    AWS_SECRET_ACCESS_KEY: "aws-secret",
    CLIENT_SECRET_VALUE: "client-secret",
    PGPASSWORD: "pg-secret",
    SMTP_PASS: "smtp-secret",
    DATABASE_URL: "postgres://app:db-secret@localhost/app",
    SOME_VALUE: "ghp_abcdefghijklmnopqrstuvwxyz0123456789", // a GitHub token under a harmless name
    "npm_config_//registry.npmjs.org/:_authToken": "registry-secret",
    EDITOR: "vi",
    LANG: "C.UTF-8",
    SSH_AUTH_SOCK: "/tmp/ssh-agent.sock",
    PWD: "/somewhere",
    GIT_AUTHOR_NAME: "Ada",
  };
  const envOf = async (options: Parameters<typeof childEnv>[1]) =>
    (await run({ command: "env" }, toolContext(dir.path, { env: childEnv(parent, { secrets: PROVIDER_KEY_ENV, ...options }) }))).output;

  test("has none of rein's keys nor anything that looks like a credential, by name or by value, and sets REIN=1", async () => {
    const output = await envOf({});

    expect(output).not.toContain("secret");
    expect(output).not.toContain("ghp_");
    for (const name of ["ANTHROPIC_API_KEY", "GITHUB_TOKEN", "AWS_ACCESS_KEY_ID", "DATABASE_URL", "SOME_VALUE"]) expect(output).not.toContain(`${name}=`);
    for (const kept of ["EDITOR=vi", "LANG=C.UTF-8", "SSH_AUTH_SOCK=/tmp/ssh-agent.sock", "GIT_AUTHOR_NAME=Ada", "REIN=1"]) expect(output).toContain(`${kept}\n`);
  });

  test("env.passthrough lets named variables through, never rein's own or a provider's key", async () => {
    const output = await envOf({ passthrough: ["GITHUB_TOKEN", "DATABASE_URL", "ANTHROPIC_API_KEY", "REIN_SERVER_TOKEN"] });

    expect(output).toContain("GITHUB_TOKEN=gh-secret\n");
    expect(output).toContain("DATABASE_URL=postgres://app:db-secret@localhost/app\n");
    expect(output).not.toContain("ANTHROPIC_API_KEY");
    expect(output).not.toContain("server-secret");
    expect(output).not.toContain("NPM_TOKEN");
  });

  test("non-interactive defaults apply only where the user set nothing", async () => {
    const env = childEnv({ PATH: process.env.PATH, PAGER: "less" });
    const { output } = await run({ command: 'echo "$GIT_EDITOR $PAGER $GIT_TERMINAL_PROMPT"' }, toolContext(dir.path, { env }));

    expect(output).toBe("true less 0\n");
  });
});

describe("bad inputs", () => {
  test("50 MB of output: head and tail come back with the omitted count; memory and live output stay bounded", async () => {
    const ctx = toolContext(dir.path, { toolUseId: "toolu_big" });
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const began = performance.now();

    const result = await run({ command: "yes | head -c 50000000; echo; echo LAST-LINE" }, ctx);

    const took = performance.now() - began;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const total = 50_000_000 + 1 + "LAST-LINE\n".length;
    const omitted = total - 2 * 1024 * 1024;
    const path = result.output.match(/the full output is in (\S+)\]/)?.[1];
    try {
      expect(result.isError).toBe(false);
      expect(result.output.startsWith("y\ny\ny\n")).toBe(true);
      expect(result.output).toContain(`\n[... ${omitted} bytes omitted; the full output is in `);
      expect(result.output).toEndWith(`y\n\nLAST-LINE\n[output: ${total} bytes in all, ${omitted} omitted from the middle; the full output is in ${path}]`);
      expect(result.output.length).toBeLessThan(2 * 1024 * 1024 + 1000);
      expect(path && statSync(path).size).toBe(total);
      expect(peak - before).toBeLessThan(150 * 1024 * 1024);
      expect(took).toBeLessThan(10_000);
      // Live output is the head and one note, not 50 MB of events.
      const streamed = ctx.chunks.join("");
      expect(streamed.length).toBeLessThan(1024 * 1024 + 200);
      expect(ctx.chunks.at(-1)).toContain("live output stops after the first 1048576 bytes");
    } finally {
      if (path) rmSync(path, { force: true });
    }
  });

  test("output a little over the head is returned whole and no temp file is left", async () => {
    const ctx = toolContext(dir.path, { toolUseId: "toolu_medium" });
    const result = await run({ command: "head -c 1500000 /dev/zero | tr '\\0' x; echo" }, ctx);
    expect(result.output).toBe(`${"x".repeat(1_500_000)}\n`);
    expect(existsSync(join(tmpdir(), `rein-bash-${process.pid}-toolu_medium.log`))).toBe(false);
    expect(ctx.chunks.join("")).toContain("live output stops");
  });

  test("a multi-byte character cut at the head or tail edge is dropped, never mangled", async () => {
    // 'é' is two bytes: an odd-length prefix makes it straddle both cuts.
    const result = await run({ command: "printf a; head -c 3000000 /dev/zero | tr '\\0' x | sed 's/xx/é/g'; echo" }, toolContext(dir.path, { toolUseId: "toolu_utf8" }));
    const path = result.output.match(/the full output is in (\S+)\]/)?.[1];
    if (path) rmSync(path, { force: true });
    expect(result.output).not.toContain("\uFFFD");
    expect(result.output).toContain("bytes omitted");
  });

  test("a command that never ends is killed at its timeout with everything it started", async () => {
    const marker = `sleep 77.71${RUN}`;
    try {
      const began = performance.now();
      const result = await run({ command: `echo started; ${marker}; echo never`, timeout: 1000 });

      expect(performance.now() - began).toBeLessThan(2500);
      expect(result).toEqual({ output: "started\n[killed: timed out after 1s]", isError: true });
      expect(running(marker)).toEqual([]);
    } finally {
      killAll(marker);
    }
  });

  test("an abort kills the command promptly and leaves nothing behind", async () => {
    const marker = `sleep 77.72${RUN}`;
    const { ctx, started } = watched();
    try {
      const result = run({ command: `echo started; ${marker} & ${marker}` }, ctx);
      await started;
      const abortedAt = performance.now();
      ctx.abort();
      const { output, isError } = await result;

      expect(performance.now() - abortedAt).toBeLessThan(500);
      expect({ output, isError }).toEqual({ output: "started\n[killed: interrupted]", isError: true });
      expect(running(marker)).toEqual([]);
    } finally {
      killAll(marker);
    }
  });

  test("a command ignoring SIGTERM is SIGKILLed a second later", async () => {
    const marker = `sleep 77.73${RUN}`;
    const { ctx, started } = watched();
    try {
      const result = run({ command: `trap '' TERM; echo started; ${marker}` }, ctx);
      await started;
      const abortedAt = performance.now();
      ctx.abort();
      const { output, isError } = await result;

      const took = performance.now() - abortedAt;
      expect(took).toBeGreaterThanOrEqual(900); // SIGTERM did nothing; the SIGKILL a second later did
      expect(took).toBeLessThan(2000);
      expect({ output, isError }).toEqual({ output: "started\n[killed: interrupted]", isError: true });
      expect(running(marker)).toEqual([]);
    } finally {
      killAll(marker);
    }
  });

  test("a background child holding the pipe does not hold the call: it returns and the child is gone", async () => {
    const marker = `sleep 77.74${RUN}`;
    try {
      const began = performance.now();
      const result = await run({ command: `${marker} & echo started` });

      expect(performance.now() - began).toBeLessThan(1000);
      expect(result).toEqual({ output: "started\n[background processes still running when the command ended were stopped]", isError: false });
      expect(running(marker)).toEqual([]);
    } finally {
      killAll(marker);
    }
  });

  test("a background child detached from the pipe is stopped too", async () => {
    const marker = `sleep 77.75${RUN}`;
    try {
      const result = await run({ command: `${marker} >/dev/null 2>&1 & echo started` });

      expect(result.output).toStartWith("started\n[background processes");
      expect(running(marker)).toEqual([]);
    } finally {
      killAll(marker);
    }
  });

  test("a process that left the group but holds the pipe does not hang the call", async () => {
    // setsid escapes the group, so rein cannot kill it; it stops reading instead of waiting for EOF.
    const marker = `sleep 77.76${RUN}`;
    try {
      const began = performance.now();
      const result = await run({ command: `setsid ${marker} & echo started` });

      expect(performance.now() - began).toBeLessThan(1000);
      expect(result.output).toStartWith("started\n");
    } finally {
      killAll(marker);
    }
  });
});
