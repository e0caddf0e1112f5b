// Four children that write at once in a fresh data folder make the workspace's shadow store together:
// none of their checkpoints is `incomplete` (a store another process was still making looked like
// "not a git repository").
import { expect, test } from "bun:test";
import { join } from "node:path";
import { parseEvents, text, world, type ReinEvent } from "./harness.ts";

const task = (n: number) => ({ type: "tool_use" as const, name: "task", id: `toolu_task_${n}`, input: { description: `write ${n}`, prompt: `write f${n}.txt`, subagent_type: "general" } });

test.concurrent("four children writing at once in a fresh data folder, ten runs: no checkpoint is incomplete", async () => {
  await using w = await world();
  for (let run = 0; run < 10; run++) {
    let asked = 0;
    let release!: () => void;
    const all = new Promise<void>((resolve) => (release = resolve));
    w.fake.reset();
    w.fake.script(
      { reply: [task(1), task(2), task(3), task(4)] },
      ...Array.from({ length: 4 }, () => ({
        respond: (body: { system?: unknown; messages: { content: unknown }[] }) => {
          const n = /write f(\d)\.txt/.exec(JSON.stringify(body.messages[0]))?.[1] ?? "x";
          if (++asked === 4) release();
          return { reply: [{ type: "tool_use" as const, name: "write", input: { path: `f${n}-run${run}.txt`, content: `run ${run}\n` } }], waitFor: all };
        },
      })),
      ...Array.from({ length: 4 }, () => ({ reply: [text("written")] })),
      { reply: [text("all written")] },
    );

    const r = await w.run(["-p", "write four files", "--permission-mode", "accept-edits", "--output-format", "stream-json"], {
      env: { REIN_DATA_DIR: join(w.root, `data-${run}`) },
      timeoutMs: 60_000,
    });

    expect(r.code).toBe(0);
    const checkpoints = parseEvents(r.stdout).filter((e: ReinEvent) => e.type === "checkpoint" && e.parent_tool_use_id);
    expect(checkpoints).toHaveLength(4);
    expect(checkpoints.filter((e) => e.incomplete).map((e) => e.incomplete)).toEqual([]);
  }
}, 240_000);
