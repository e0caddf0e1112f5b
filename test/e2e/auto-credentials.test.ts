// Credential reads in `--permission-mode auto`, judged by what reaches the fake model: whatever
// route a line takes to a key, the key is in no request. The sandbox of mode-allowed commands
// masks the credentials as the read-only sandbox does (skipped where bubblewrap cannot run).
import { expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sandboxAvailable } from "../../tools/lib/sandbox.ts";
import { bash, resultText, text, toolResultsOf, type World, world } from "./harness.ts";

const available = sandboxAvailable().ok;
const KEY = "FAKE-SSH-KEY-e2e-4411";
const DOCKER = "FAKE-DOCKER-AUTH-e2e-5522";
const GH = "FAKE-GH-TOKEN-e2e-6633";

/** A fake HOME holding an SSH key, docker's auth and gh's token. */
async function secrets(w: World): Promise<void> {
  await mkdir(join(w.home, ".ssh"), { recursive: true });
  await writeFile(join(w.home, ".ssh", "id_rsa"), `${KEY}\n`);
  await mkdir(join(w.home, ".docker"), { recursive: true });
  await writeFile(join(w.home, ".docker", "config.json"), JSON.stringify({ auths: { "registry.example": { auth: DOCKER } } }));
  await mkdir(join(w.home, ".config", "gh"), { recursive: true });
  await writeFile(join(w.home, ".config", "gh", "hosts.yml"), `github.com:\n  oauth_token: ${GH}\n`);
}

function sent(w: World): string {
  return JSON.stringify(w.fake.requests.map((r) => r.body));
}

test.concurrent.skipIf(!available)("auto mode: a mode-allowed cat of the SSH key, named so the analysis cannot see it, runs masked", async () => {
  await using w = await world();
  await secrets(w);
  // The path is only known when the line runs: auto mode's bare allow lets it run, in the sandbox.
  w.fake.script({ reply: [bash(`d=$(printf .ss); c=$(printf .conf); cat ~/\${d}h/id_rsa ~/\${c}ig/gh/hosts.yml; echo "ran: \$?"`, "toolu_cat")] }, { reply: [text("done")] });
  const r = await w.run(["-p", "read the key", "--permission-mode", "auto"]);
  expect(r.code).toBe(0);
  expect(w.fake.requests).toHaveLength(2);
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toContain("ran:");
  expect(sent(w)).not.toContain(KEY);
  expect(sent(w)).not.toContain(GH);
});

test.concurrent.skipIf(!available)("auto mode: the issue's line (~+, jq -L, CDPATH) in a fake HOME sends no secret", async () => {
  await using w = await world();
  await secrets(w);
  const line = `cat ~+/../home/.ssh/id_rsa; jq -n -L ~ 'import ".docker/config" as $c; $c'; printf -v CDPATH %s ~/.config && cd gh && cat hosts.yml; echo ran`;
  w.fake.script({ reply: [bash(line, "toolu_line")] }, { reply: [text("done")] });
  const r = await w.run(["-p", "read them", "--permission-mode", "auto"]);
  expect(r.code).toBe(0);
  expect(w.fake.requests).toHaveLength(2);
  const all = sent(w);
  for (const secret of [KEY, DOCKER, GH]) expect(all).not.toContain(secret);
  // It was answered (ran masked, or refused), not lost.
  expect(resultText(toolResultsOf(w.fake.requests[1])[0]).length).toBeGreaterThan(0);
});
