// SIGTERM ends rein within 2 s, SessionEnd hooks included, and leaves nothing running: a slow
// SessionEnd hook is cut short (its whole group ended), and a second SIGTERM's exit kills it too.
import { expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pidsMatching, waitFor, world } from "./harness.ts";

const RUN = String(process.pid).padStart(7, "0");

async function withSlowSessionEnd(sleep: string) {
  const w = await world();
  // the hook ignores SIGTERM, as a careless one may: only SIGKILL ends it
  const hook = `trap '' TERM; ${sleep}`;
  await writeFile(join(w.configDir, "config.json"), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: "command", command: hook, timeout: 60 }] }] } }));
  w.fake.script({ hang: true });
  return w;
}

for (const second of [false, true]) {
  test.concurrent(`SIGTERM${second ? " twice" : ""} with a slow SessionEnd hook: exit 143 within 2 s, the hook is not left running`, async () => {
    const sleep = `sleep 20.${second ? 1 : 2}${RUN}`;
    await using w = await withSlowSessionEnd(sleep);
    const rein = w.start(["-p", "hang", "--output-format", "stream-json"], { timeoutMs: 60_000 });
    await waitFor(() => w.fake.requests.length > 0, "the first request", 15_000);

    rein.kill("SIGTERM");
    if (second) {
      await waitFor(async () => (await pidsMatching(sleep)).length > 0, "the SessionEnd hook to start", 15_000);
      rein.kill("SIGTERM");
    }
    // SIGKILL 2 s after SIGTERM, as `timeout -k 2` would: then the code would be 137, not 143.
    const killer = setTimeout(() => rein.kill("SIGKILL"), 2_000);
    const r = await rein.exited;
    clearTimeout(killer);

    expect(r.code).toBe(143);
    await waitFor(async () => (await pidsMatching(sleep)).length === 0, "the hook's sleep to be gone", 5_000);
  }, 60_000);
}
