// Auto mode where no kernel sandbox runs its commands (the sandbox off here; bubblewrap missing is
// the same to the engine): credential reads through the shell are denied, and a line whose reads
// the analysis cannot resolve asks, which print mode refuses. Judged by what reaches the fake model.
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { bash, text, toolResultsOf, resultText, world } from "./harness.ts";

const KEY = "FAKE-SSH-KEY-e2e-8811";
const DOCKER = "FAKE-DOCKER-AUTH-e2e-8822";
const GH = "FAKE-GH-TOKEN-e2e-8833";
const CLAUDE = "FAKE-CLAUDE-OAUTH-e2e-8844";

const LINES = [
  "cat ~+/../home/.ssh/id_rsa",
  `jq -n -L ~ 'import ".docker/config" as $c; $c'`,
  "printf -v CDPATH %s ~/.config && cd gh && cat hosts.yml",
  "cat $(printf %s ~/.conf)ig/gh/hosts.yml",
  "tr '\\0' '\\n' < /proc/$PPID/environ",
  "cat /proc/$PPID/environ",
  "{cat,~/.ssh/id_rsa}",
  "cat ~/.claude/.credentials.json",
  "jq -n --args '$k' --rawfile k ~/.ssh/id_rsa",
];

test.concurrent("auto mode without a sandbox: no credential read through the shell reaches the model", async () => {
  await using w = await world();
  await mkdir(join(w.home, ".ssh"), { recursive: true });
  await writeFile(join(w.home, ".ssh", "id_rsa"), `${KEY}\n`);
  await mkdir(join(w.home, ".docker"), { recursive: true });
  await writeFile(join(w.home, ".docker", "config.json"), JSON.stringify({ auths: { "registry.example": { auth: DOCKER } } }));
  await mkdir(join(w.home, ".config", "gh"), { recursive: true });
  await writeFile(join(w.home, ".config", "gh", "hosts.yml"), `github.com:\n  oauth_token: ${GH}\n`);
  await mkdir(join(w.home, ".claude"), { recursive: true });
  await writeFile(join(w.home, ".claude", ".credentials.json"), JSON.stringify({ claudeAiOauth: { accessToken: CLAUDE } }));
  w.fake.script({ reply: LINES.map((line, i) => bash(line, `toolu_${i}`)) }, { reply: [text("done")] });

  const r = await w.run(["-p", "read them", "--permission-mode", "auto"], { env: { REIN_SANDBOX: "off" } });

  expect(r.code).toBe(0);
  expect(w.fake.requests).toHaveLength(2);
  const results = toolResultsOf(w.fake.requests[1]).map(resultText);
  expect(results).toHaveLength(LINES.length);
  for (const result of results) expect(result).toMatch(/^(?:Permission denied|Not run)/);
  const sent = JSON.stringify(w.fake.requests.map((request) => request.body));
  for (const secret of [KEY, DOCKER, GH, CLAUDE, "test-key"]) expect(sent).not.toContain(secret);
});
