// Runs test/support/crash-child.ts against a kit's store and fake server, collecting the events it
// shows (each printed once stored), and kills it with SIGKILL as soon as `stop` says so.
import { join } from "node:path";
import type { StampedEvent } from "../../src/agent/types.ts";
import type { Kit } from "./session-kit.ts";

export async function runChildUntil(
  kit: Kit,
  prompt: string,
  stop: (shown: readonly StampedEvent[]) => boolean,
): Promise<{ shown: StampedEvent[]; code: number; signal: unknown }> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "crash-child.ts"), kit.store.path, kit.fake.url, kit.dir.path, prompt], {
    stdout: "pipe",
    stderr: "ignore",
  });
  const shown: StampedEvent[] = [];
  let buffered = "";
  const decoder = new TextDecoder();
  for await (const bytes of child.stdout) {
    buffered += decoder.decode(bytes, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) shown.push(JSON.parse(line) as StampedEvent);
    if (stop(shown)) break;
  }
  child.kill("SIGKILL");
  const code = await child.exited;
  return { shown, code, signal: child.signalCode };
}
