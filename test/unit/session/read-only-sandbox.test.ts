// The kernel sandbox as the second line behind the analysis, through a whole session: the real
// bash tool, the real permission engine, the fake model. The rules are a test double of an
// analysis that gets a line wrong: it finds a writing line read-only. Such a line must still write
// nothing, while the same line allowed by a person's rule runs under the session's sandbox setting.
import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Rule } from "../../../src/permission/evaluate.ts";
import { DEFAULT_RULES } from "../../../src/permission/modes.ts";
import { permissionEngine } from "../../../src/app/factory.ts";
import { maskSource } from "../../../src/session/sandbox-masks.ts";
import { Session } from "../../../src/session/session.ts";
import bash from "../../../tools/bash.ts";
import { sandboxAvailable } from "../../../tools/lib/sandbox.ts";
import { type Kit, sentResults, useKit } from "../../support/session-kit.ts";

const available = sandboxAvailable();
const useShared = useKit();
let kit: Kit;
beforeEach(() => {
  kit = useShared();
});

// (No option whose effect the analysis cannot resolve: without a sandbox such a line asks whatever the rules say.)
const WRITES = "printf 'b\\na\\n' > in.txt; sort -o out.txt in.txt; touch made.txt; echo ran";
/** An analysis that finds every line read-only (as a table that wrongly classes an option as harmless would). */
const WRONG_ANALYSIS: Rule[] = [{ permission: "*", pattern: "*", action: "allow", readOnly: true }];
const PERSON_RULE: Rule[] = [{ permission: "*", pattern: "*", action: "allow" }];

/** Runs WRITES through a session in a fresh folder; returns the folder and what the model was sent back. */
async function runLine(rules: Rule[], mode: "off" | "on") {
  const cwd = mkdtempSync(join(kit.dir.path, "ws-"));
  const options = {
    ...kit.options({ tools: [bash], rules }),
    expand: permissionEngine({ projectRoot: cwd, home: kit.dir.path, reinDirs: [] }),
    sandbox: { mode, network: false, masked: () => [] },
  };
  kit.fake.script({ reply: [{ type: "tool_use", name: "bash", input: { command: WRITES } }] }, { reply: [{ type: "text", text: "done" }] });
  const result = await Session.create(cwd, options).prompt("run it");
  expect(result.status).toBe("success");
  return { cwd, output: String(sentResults(kit.fake.requests.at(-1))[0]!.content) };
}

describe.skipIf(!available.ok)("a line the analysis allowed as read-only", () => {
  test("writes nothing, in the workspace or anywhere, even with the session's sandbox off", async () => {
    const { cwd, output } = await runLine(WRONG_ANALYSIS, "off");

    expect(output).toContain("ran\n");
    expect(output).toContain("Read-only file system");
    for (const name of ["in.txt", "out.txt", "made.txt"]) expect(existsSync(join(cwd, name))).toBe(false);
  });

  test("allowed by a rule instead, the same line runs under the session's sandbox: the workspace is writable", async () => {
    const { cwd, output } = await runLine(PERSON_RULE, "on");

    expect(output).toContain("ran\n");
    expect(output).not.toContain("Read-only file system");
    expect(existsSync(join(cwd, "out.txt"))).toBe(true);
    expect(existsSync(join(cwd, "made.txt"))).toBe(true);
  });
});

describe.skipIf(!available.ok)("the real defaults with the session's masks", () => {
  test("a recursive grep of a folder past the symlink walk's 10,000 entries still asks for the .env below them", async () => {
    // The walk for symlinks stops after 10,000 entries (these files come first); the one for
    // environment files goes on, so the analysis asks, and the sandbox's masks are a second line only.
    const cwd = mkdtempSync(join(kit.dir.path, "ws-"));
    for (let i = 0; i <= 10_000; i++) writeFileSync(join(cwd, `f${i}.txt`), "");
    mkdirSync(join(cwd, "packages", "api"), { recursive: true });
    writeFileSync(join(cwd, "packages", "api", ".env"), "API_SECRET=hunter2\n");
    writeFileSync(join(cwd, "notes.txt"), "API_SECRET is read from the environment\n");
    const asked: string[] = [];
    const options = {
      ...kit.options({ tools: [bash], rules: DEFAULT_RULES, askPolicy: (ask) => (asked.push(ask.requests.map((r) => (r as { fixed?: { reason: string } }).fixed?.reason ?? "").join(" ")), { reply: "reject" as const }) }),
      expand: permissionEngine({ projectRoot: cwd, home: kit.dir.path, reinDirs: [] }),
      sandbox: { mode: "off" as const, network: false, masked: maskSource({ home: kit.dir.path, reinDirs: [], workspace: cwd }) },
    };
    kit.fake.script({ reply: [{ type: "tool_use", name: "bash", input: { command: "grep -r API_SECRET ." } }] }, { reply: [{ type: "text", text: "done" }] });
    const result = await Session.create(cwd, options).prompt("search");
    const output = String(sentResults(kit.fake.requests.at(-1))[0]!.content);

    expect(result.status).toBe("success");
    expect(asked.join("\n")).toContain("environment file");
    expect(output).not.toContain("hunter2");
  });
});
