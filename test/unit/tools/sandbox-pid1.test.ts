// The shared read-only sandbox's pid 1 outlives every call, so a call that could reach it (ptrace,
// /proc/1/mem, its pipes through /proc/1/fd) could change what later calls print. A real attack,
// with the real bash tool in a real bwrap: the call attaches to pid 1 with ptrace, writes pid 1's
// memory where it holds a variable every later call inherits, and reads pid 1's request pipe; the
// next call must print the variable as it was, and the attack must have been refused each time.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import bash from "../../../tools/bash.ts";
import { sandboxAvailable } from "../../../tools/lib/sandbox.ts";
import { tempDir, type TempDir } from "../../support/temp-dir.ts";
import { toolContext, toolOutcome } from "../../support/tool-context.ts";

const available = sandboxAvailable();
const VALUE = "original-value-of-the-probe";
const FORGED = "hijacked-value-of-the-probe";

/** Run inside the sandbox by bun: each way into pid 1, and what came of it, one line each. */
const ATTACK = `
import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { dlopen } from "bun:ffi";
const said = (line) => console.log(line);
try {
  const libc = dlopen("libc.so.6", { ptrace: { args: ["i64", "i32", "ptr", "ptr"], returns: "i64" } });
  const attached = libc.symbols.ptrace(0x4206, 1, null, null); // PTRACE_SEIZE: attached, not stopped
  said(attached === 0n ? "ptrace: attached" : "ptrace: refused");
} catch (error) {
  said("ptrace: unavailable " + error.message);
}
try {
  const maps = readFileSync("/proc/1/maps", "utf8");
  const fd = openSync("/proc/1/mem", "r+");
  let patched = 0;
  for (const line of maps.split("\\n")) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) rw/.exec(line);
    if (!m) continue;
    const start = parseInt(m[1], 16), end = parseInt(m[2], 16);
    const bytes = Buffer.alloc(end - start);
    try { readSync(fd, bytes, 0, bytes.length, start); } catch { continue; }
    for (let at = bytes.indexOf(${JSON.stringify(VALUE)}); at >= 0; at = bytes.indexOf(${JSON.stringify(VALUE)}, at + 1)) {
      writeSync(fd, Buffer.from(${JSON.stringify(FORGED)}), 0, ${FORGED.length}, start + at);
      patched++;
    }
  }
  closeSync(fd);
  said("mem: patched " + patched);
} catch (error) {
  said("mem: refused " + error.code);
}
try {
  readFileSync("/proc/1/fd/3");
  said("pipe: opened");
} catch (error) {
  said("pipe: refused " + error.code);
}
`;

let dir: TempDir;
beforeAll(() => {
  dir = tempDir("rein-sandbox-pid1-");
  writeFileSync(join(dir.path, "attack.mjs"), ATTACK);
});
afterAll(() => dir.remove());

const ctx = () =>
  toolContext(dir.path, {
    sandbox: { mode: "off", network: false, readOnly: true, masked: [] },
    env: { PATH: process.env.PATH!, HOME: dir.path, PROBE: VALUE },
  });
const run = async (command: string) => toolOutcome(await bash.run({ command }, ctx()));

describe.skipIf(!available.ok)("the shared read-only sandbox's pid 1", () => {
  test("a call that ptraces pid 1, writes its memory or opens its pipe cannot change a later call's output", async () => {
    const PID1 = "cut -d' ' -f22 /proc/1/stat"; // its start time: the same sandbox throughout
    const before = await run(`${PID1}; echo "$PROBE"`);
    expect(before.output.split("\n")[1]).toBe(VALUE);

    const attack = await run(`${JSON.stringify(process.execPath)} attack.mjs; ${PID1}`);
    const lines = attack.output.trim().split("\n");
    expect(lines[0]).toStartWith("ptrace: ");
    expect(lines[0]).not.toBe("ptrace: attached");
    expect(lines[1]).toMatch(/^mem: refused E(ACCES|PERM)$/);
    expect(lines[2]).toMatch(/^pipe: refused E(ACCES|PERM)$/);
    expect(lines[3]).toBe(before.output.split("\n")[0]!); // it ran in that sandbox

    const after = await run(`${PID1}; echo "$PROBE"`);
    expect(after.output).toBe(before.output);
  });

  test("a call holds no capabilities, even where rein runs as root, so it cannot remount the read-only host", async () => {
    const result = await run("grep CapEff /proc/self/status; mount -o remount,bind,rw / 2>&1 || echo refused; touch probe-file 2>&1 || true");
    expect(result.output).toContain("CapEff:\t0000000000000000");
    expect(result.output).toContain("refused");
    expect(result.output).toContain("Read-only file system");
  });
});
