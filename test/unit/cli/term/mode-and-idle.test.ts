// Shift-Tab's permission modes and the idle notice for Notification hooks: which modes the cycle
// goes through, what it prints and switches, the line under the prompt, the REIN_IDLE_NOTIFY_MS
// setting, and the notice firing once per wait (a key starts the wait again, a turn stops it).
import { describe, expect, test } from "bun:test";
import chalk from "chalk";
import type { PermissionMode } from "../../../../src/config/load.ts";
import { idleDelay, IdleNotice } from "../../../../src/cli/term/idle-notice.ts";
import { cycleMode, modeCycle, modeLine, type ModeHost } from "../../../../src/cli/term/mode-cycle.ts";

chalk.level = 0;

function host(start: PermissionMode, started = start): ModeHost & { switched: PermissionMode[] } {
  let mode = start;
  const switched: PermissionMode[] = [];
  return {
    switched,
    permissionMode: () => mode,
    permissionModes: () => modeCycle(started),
    switchMode: (next) => void (switched.push(next), (mode = next)),
  };
}

describe("Shift-Tab", () => {
  test("auto is in the cycle only when the run began in auto mode", () => {
    expect(modeCycle("default")).toEqual(["default", "accept-edits"]);
    expect(modeCycle("plan")).toEqual(["default", "accept-edits"]);
    expect(modeCycle("auto")).toEqual(["default", "accept-edits", "auto"]);
  });

  test("each press switches to the next mode, round to the first, and says what it means", () => {
    const h = host("default", "auto");
    expect(cycleMode(h)).toBe("permission mode: accept-edits · edits in the workspace run without asking (shift+tab: the next one)");
    expect(cycleMode(h)).toBe("permission mode: auto · everything runs unless a deny rule or a protected path forbids it (shift+tab: the next one)");
    expect(cycleMode(h)).toBe("permission mode: default · edits and commands that are not read-only ask (shift+tab: the next one)");
    expect(h.switched).toEqual(["accept-edits", "auto", "default"]);
  });

  test("a mode outside the cycle (plan) goes to the cycle's first; a mode can be named", () => {
    const h = host("plan");
    cycleMode(h);
    expect(h.switched).toEqual(["default"]);
    cycleMode(h, "accept-edits");
    expect(h.switched).toEqual(["default", "accept-edits"]);
  });

  test("nothing happens without a host that can switch, or with one mode only", () => {
    expect(cycleMode(undefined)).toBeUndefined();
    expect(cycleMode({ permissionMode: () => "default", permissionModes: () => ["default", "accept-edits"] })).toBeUndefined();
    const single = { ...host("default"), permissionModes: () => ["default" as const] };
    expect(cycleMode(single)).toBeUndefined();
    expect(single.switched).toEqual([]);
  });

  test("the line under the prompt names a mode other than the default; plan has the agent's own", () => {
    expect(modeLine(host("accept-edits"))).toBe("⏵⏵ accept-edits on (shift+tab to cycle)");
    expect(modeLine(host("auto"))).toBe("⏵⏵ auto on (shift+tab to cycle)");
    expect(modeLine(host("default"))).toBeUndefined();
    expect(modeLine(host("plan"))).toBeUndefined();
    expect(modeLine(undefined)).toBeUndefined();
  });
});

describe("REIN_IDLE_NOTIFY_MS", () => {
  test("whole milliseconds, spaces allowed; unset or empty is 60 s", () => {
    const warned: string[] = [];
    const warn = (line: string) => void warned.push(line);
    expect(idleDelay("1500", warn)).toBe(1500);
    expect(idleDelay(" 0 ", warn)).toBe(0);
    expect(idleDelay(undefined, warn)).toBe(60_000);
    expect(idleDelay("", warn)).toBe(60_000);
    expect(warned).toEqual([]);
  });

  test("anything else is the default, with one warning naming the value", () => {
    const warned: string[] = [];
    for (const bad of ["1.5s", "-3", "soon"]) expect(idleDelay(bad, (line) => void warned.push(line))).toBe(60_000);
    expect(warned).toEqual([
      'REIN_IDLE_NOTIFY_MS: expected whole milliseconds, got "1.5s"; waiting the default 60 s',
      'REIN_IDLE_NOTIFY_MS: expected whole milliseconds, got "-3"; waiting the default 60 s',
      'REIN_IDLE_NOTIFY_MS: expected whole milliseconds, got "soon"; waiting the default 60 s',
    ]);
  });
});

describe("the idle notice", () => {
  /** The names of the notices that fired, in order. */
  const fired: string[] = [];
  const notice = (name: string, delay: number | undefined, done?: () => void) =>
    new IdleNotice(delay, () => {
      fired.push(name);
      done?.();
    });

  test("fires once after the wait", async () => {
    fired.length = 0;
    await new Promise<void>((resolve) => notice("a", 5, resolve).waiting());
    expect(fired).toEqual(["a"]);
  });

  test("a notice stopped before its wait ends never fires, though a later, longer one does", async () => {
    fired.length = 0;
    const stopped = notice("stopped", 1);
    stopped.waiting();
    stopped.stop();
    await new Promise<void>((resolve) => notice("later", 30, resolve).waiting());
    expect(fired).toEqual(["later"]);
  });

  test("waiting again restarts the wait: one notice, not two", async () => {
    fired.length = 0;
    const twice = notice("twice", 5);
    twice.waiting();
    twice.waiting();
    await new Promise<void>((resolve) => notice("after", 40, resolve).waiting());
    expect(fired).toEqual(["twice", "after"]);
  });

  test("a key with no wait running starts none; without a delay no timer is ever set", async () => {
    fired.length = 0;
    notice("poked", 1).poke();
    notice("never", undefined).waiting();
    await new Promise<void>((resolve) => notice("control", 30, resolve).waiting());
    expect(fired).toEqual(["control"]);
  });
});
