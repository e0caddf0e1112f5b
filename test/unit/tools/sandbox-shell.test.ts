// Read-only calls share one long-lived read-only sandbox (tools/lib/sandbox-shell.ts), with a real
// bwrap and the real bash tool: nothing of one call reaches the next (processes, temp files,
// environment), the output arrives byte for byte around the end marks, and a stopped call takes
// its sandbox with it while the next call gets a new one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import bash from "../../../tools/bash.ts";
import { sandboxAvailable } from "../../../tools/lib/sandbox.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { toolContext, toolOutcome, type TestContext } from "../../support/tool-context.ts";

const RUN = String(process.pid).padStart(7, "0");
const available = sandboxAvailable();

let dir: TempDir;
beforeAll(() => {
  dir = tempDir("rein-sandbox-shell-");
  writeFileSync(join(dir.path, "notes.txt"), "hello\n");
});
afterAll(() => dir.remove());

const readOnly = (more: Partial<TestContext> = {}) => toolContext(dir.path, { sandbox: { mode: "off", network: false, readOnly: true, masked: [] }, ...more });
const run = async (command: string, ctx = readOnly(), timeout?: number) => toolOutcome(await bash.run({ command, ...(timeout ? { timeout } : {}) }, ctx));
const running = (pattern: string) => Bun.spawnSync(["pgrep", "-f", pattern]).stdout.toString().split("\n").filter(Boolean);
/** When the sandbox's pid 1 started (clock ticks since boot): the same value means the same sandbox. */
const PID1_START = "cut -d' ' -f22 /proc/1/stat";

describe.skipIf(!available.ok)("read-only calls in one shared sandbox", () => {
  test("the next call runs in the same sandbox, yet sees nothing the last one left: processes, temp files, variables", async () => {
    const first = await run(`sleep 77.1${RUN} & echo kept > "$TMPDIR/left.txt"; export LEFT=1; ${PID1_START}`);
    expect(first.output).toContain("[background processes still running when the command ended were stopped]");
    expect(running(`sleep 77.1${RUN}`)).toEqual([]);

    const second = await run(`${PID1_START}; ls -A "$TMPDIR"; echo "[\${LEFT-}] $REIN_CALL"; cat notes.txt`);
    const [start] = first.output.split("\n");
    expect(second.output.split("\n")[0]).toBe(start!);
    expect(second.output).toContain("[] "); // not the last call's variable, and a marker of its own
    expect(second.output).not.toContain("left.txt");
    expect(second.output).toEndWith("hello\n");
    expect(second.isError).toBe(false);
  });

  test("output reaches the call whole: record separators, no final newline, a large stream, the exit status", async () => {
    const result = await run(`printf 'a\\036b\\036'; head -c 300000 /dev/zero | tr '\\0' x; printf end; exit 3`);
    expect(result.output).toBe(`Exit code 3\na\x1eb\x1e${"x".repeat(300_000)}end`);
  });

  test("the call's own environment and working directory, as unsandboxed", async () => {
    const ctx = readOnly({ env: { PATH: process.env.PATH!, ONLY_THIS: "v a l" }, cwd: "/" });
    const result = await run(`pwd; env | grep -v '^REIN_CALL=' | sort`, ctx);
    expect(result.output.split("\n")).toEqual(["/", "ONLY_THIS=v a l", `PATH=${process.env.PATH}`, "PWD=/", "SHLVL=1", "TMPDIR=/dev/shm", "_=/usr/bin/env", ""]);
  });

  test("a timed-out call is killed with everything it started; one that ignores SIGTERM takes its sandbox along, and the next call gets a new one", async () => {
    const result = await run(`echo started; setsid sleep 77.2${RUN} & sleep 77.3${RUN}`, readOnly(), 1000);
    expect(result).toEqual({ output: "started\n[killed: timed out after 1s]", isError: true, metadata: undefined });
    expect(running(`sleep 77.2${RUN}`)).toEqual([]);
    expect(running(`sleep 77.3${RUN}`)).toEqual([]);

    const before = (await run(PID1_START)).output;
    const stubborn = await run(`trap '' TERM; echo started; sleep 77.5${RUN}; sleep 77.5${RUN}`, readOnly(), 1000);
    expect(stubborn).toEqual({ output: "started\n[killed: timed out after 1s]", isError: true, metadata: undefined });
    expect(running(`sleep 77.5${RUN}`)).toEqual([]);
    const after = await run(`${PID1_START}; cat notes.txt`);
    expect(after.output).toEndWith("hello\n");
    expect(after.output.split("\n")[0]).not.toBe(before.trim());
  });

  test("an abort ends the call promptly; calls at once run side by side", async () => {
    let started!: () => void;
    const output = new Promise<void>((resolve) => (started = resolve));
    const ctx = readOnly({ output: () => started() });
    const call = run(`echo started; sleep 77.4${RUN}`, ctx);
    await output;
    const both = Promise.all([run("sleep 0.2; echo one"), run("sleep 0.2; echo two")]);
    ctx.abort();
    expect(await call).toEqual({ output: "started\n[killed: interrupted]", isError: true, metadata: undefined });
    expect(running(`sleep 77.4${RUN}`)).toEqual([]);
    expect((await both).map((r) => r.output)).toEqual(["one\n", "two\n"]);
  });
});
