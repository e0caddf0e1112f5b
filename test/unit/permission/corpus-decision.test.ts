// The adversarial corpus through the whole engine: with a permissive user's allow rules (every
// carrier command allowed by a pattern, but no bare `*`), no line that hides a dangerous command is
// allowed, and a deny written for the hidden command denies it through every construct and wrapper.
import { expect, test } from "bun:test";
import type { Rule } from "../../../src/permission/evaluate.ts";
import { explainCommand } from "../../../src/app/explain.ts";
import { CORPUS, CORPUS_CWD, CORPUS_HOME } from "./shell/corpus.ts";

const CARRIERS = ["echo", "ls", "cat", "true", "git", "grep", "find", "env", "sh", "bash", "python", "python3", "node", "timeout", "nice", "xargs", "sudo", "curl", "wget", "printf", "command", "exec", "nohup", "watch", "parallel", "tee", "awk", "sed"];
const allow = (pattern: string): Rule => ({ permission: "bash", pattern, action: "allow" });

test(`none of the ${CORPUS.length} corpus lines is allowed, and the hidden command's deny always applies`, async () => {
  const allowed: string[] = [];
  const notDenied: string[] = [];
  for (const entry of CORPUS) {
    const flags = CARRIERS.map((c) => allow(`${c} *`));
    if ("name" in entry.expect) flags.push({ permission: "bash", pattern: `${entry.expect.name} *`, action: "deny" });
    const result = await explainCommand(entry.line, {
      cwd: CORPUS_CWD,
      projectRoot: CORPUS_CWD,
      home: CORPUS_HOME,
      reinDirs: [],
      mode: "default",
      rules: { user: [], project: [], flags },
    });
    if (result.decision === "allow") allowed.push(entry.line);
    const found = "name" in entry.expect && result.commands.some((c) => c.argv[0] === (entry.expect as { name: string }).name);
    if (found && result.decision !== "deny") notDenied.push(`${entry.line} -> ${result.decision}`);
  }
  expect(allowed).toEqual([]);
  expect(notDenied).toEqual([]);
}, 60_000); // 321 lines through the whole engine, one after another: past bun's 5 s on a busy machine
