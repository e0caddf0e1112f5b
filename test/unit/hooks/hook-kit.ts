// Sessions with hooks for tests: real shell scripts written into the kit's folder, loaded through
// the real sources (rein's config shape or a Claude Code settings file) and run by a real Session
// against the fake model server.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HooksConfig } from "../../../src/config/hooks-schema.ts";
import { Session, type SessionOptions } from "../../../src/session/session.ts";
import { loadHooks } from "../../../src/session/session-hooks.ts";
import type { Tool } from "../../../src/sdk.ts";
import bash from "../../../tools/bash.ts";
import write from "../../../tools/write.ts";
import { eventLog } from "../../support/event-log.ts";
import type { Kit, SessionSetup } from "../../support/session-kit.ts";

export const TOOLS: Tool[] = [bash, write];
let scripts = 0;

/** An executable script in the kit's folder; returns its path. */
export function script(kit: Kit, body: string): string {
  const path = join(kit.dir.path, "hooks", `hook-${++scripts}.sh`);
  mkdirSync(join(kit.dir.path, "hooks"), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** One hook group per entry: [event, matcher, command, timeout?]. */
export function hooksOf(...groups: [keyof HooksConfig, string | undefined, string, number?][]): HooksConfig {
  const out: HooksConfig = {};
  for (const [event, matcher, command, timeout] of groups) {
    (out[event] ??= []).push({ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: "command", command, ...(timeout ? { timeout } : {}) }] });
  }
  return out;
}

type HookedOptions = { claude?: boolean; tools?: Tool[]; setup?: SessionSetup };

/** Session options running `hooks` from rein's user config, or from a Claude Code project file (`claude`). */
export function hookedOptions(kit: Kit, hooks: HooksConfig, opts: HookedOptions = {}): { options: SessionOptions; warnings: string[] } {
  const home = join(kit.dir.path, "home");
  let rein: { file: string; scope: "user"; hooks: HooksConfig }[] = [{ file: join(home, "config.json"), scope: "user", hooks }];
  if (opts.claude) {
    mkdirSync(join(kit.dir.path, ".claude"), { recursive: true });
    writeFileSync(join(kit.dir.path, ".claude", "settings.json"), JSON.stringify({ hooks }));
    rein = [];
  }
  const loaded = loadHooks({ rein, home, projectRoot: kit.dir.path, trusted: true });
  const options = { ...kit.options({ tools: opts.tools ?? TOOLS, ...opts.setup }), hooks: { entries: loaded.entries, projectDir: kit.dir.path, permissionMode: "default" } };
  return { options, warnings: loaded.warnings };
}

/** A session running `hooks` (see hookedOptions). */
export function hookedSession(kit: Kit, hooks: HooksConfig, opts: HookedOptions = {}) {
  const { options, warnings } = hookedOptions(kit, hooks, opts);
  const session = Session.create(kit.dir.path, options);
  return { session, log: eventLog(session), warnings };
}

/** A hook group per event that appends `EVENT:matched-field ` to `log` (the source, the reason...). */
export function recorder(log: string, ...events: [keyof HooksConfig, string][]): HooksConfig {
  const out: HooksConfig = {};
  for (const [event, field] of events) {
    const read = field ? `$(sed -n 's/.*"${field}":"\\([^"]*\\)".*/\\1/p')` : "";
    (out[event] ??= []).push({ hooks: [{ type: "command", command: `printf '%s ' "${event}${field ? ":" : ""}${read}" >> ${log}` }] });
  }
  return out;
}

export const bashCall = (id: string, command: string) => ({ reply: [{ type: "tool_use" as const, name: "bash", input: { command }, id }] });
export const writeCall = (id: string, path: string, content: string) => ({ reply: [{ type: "tool_use" as const, name: "write", input: { path, content }, id }] });
export const say = (text: string) => ({ reply: [{ type: "text" as const, text }] });
