// "teammateMode": "tmux" with real tmux and the compiled binary: a background worker runs as a rein
// process in a window of its own (a detached `rein-LEAD` session when rein is not inside tmux), on the
// same session store; the lead in print mode waits for it, gets its <task-notification> with the
// worker's answer, and answers. A message sent while it runs reaches the pane's rein at its turn boundary.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pidsMatching, text, waitFor, world } from "./harness.ts";

const isLead = (b: any) => JSON.stringify(b.system).includes("You are the coordinator agent");
const body = (b: any) => JSON.stringify(b.messages);
const call = (name: string, input: unknown, id?: string) => ({ type: "tool_use" as const, name, input, ...(id ? { id } : {}) });

test("a tmux worker runs in its own window as a rein process; the lead gets its notification and answers", async () => {
  await using w = await world();
  const sockets = mkdtempSync(join(tmpdir(), "rein-tmux-"));
  const env = { TMUX: undefined, TMUX_PANE: undefined, TMUX_TMPDIR: sockets };
  const tmux = (...args: string[]) => Bun.spawnSync(["tmux", ...args], { env: { ...process.env, TMUX: "", TMUX_TMPDIR: sockets } });
  try {
    await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ teammateMode: "tmux" }));
    await Bun.write(w.path("notes.txt"), "the answer is 42\n");
    let workerTurns = 0;
    // The worker's first reply waits until the lead's message is in the store's mailbox: it reads it at its next turn boundary.
    const mailPosted = (async () => {
      const file = join(w.dataDir, "rein.db");
      for (;;) {
        if (existsSync(file)) {
          const db = new Database(file);
          const n = (() => {
            try {
              return (db.query("SELECT COUNT(*) AS n FROM mailbox WHERE body LIKE '%also say hello%'").get() as { n: number }).n;
            } catch {
              return 0;
            } finally {
              db.close();
            }
          })();
          if (n > 0) return;
        }
        await Bun.sleep(20);
      }
    })();
    const step = (b: any) => {
      if (!isLead(b)) {
        workerTurns++;
        if (!body(b).includes("the answer is 42")) return { reply: [call("read", { path: "notes.txt" })], waitFor: mailPosted };
        return { reply: [text(body(b).includes("also say hello") ? "42, and hello" : "42")] };
      }
      if (!body(b).includes("task_id:")) return { reply: [call("task", { description: "read", prompt: "read notes.txt and say the answer", subagent_type: "explore", run_in_background: true, name: "reader" }, "toolu_bg")] };
      if (!body(b).includes("Message sent")) return { reply: [call("send_message", { to: "reader", message: "also say hello" })] };
      if (!body(b).includes("<task-id>")) return { reply: [text("waiting for the reader")] };
      return { reply: [text(`the reader says: ${/<result>([^<]*)<\/result>/.exec(body(b))?.[1]}`)] };
    };
    w.fake.script(...Array.from({ length: 12 }, () => ({ respond: step })));

    const r = await w.runStream(["-p", "find the answer", "--agent", "coordinator", "--trust"], { env, timeoutMs: 60_000 });

    expect(r.code).toBe(0);
    const final = r.events.at(-1)!;
    expect(final).toMatchObject({ type: "result", status: "success" });
    expect(final.text).toBe("the reader says: 42, and hello");
    expect(r.stderr).toContain(`workers run in tmux: tmux attach -t rein-${final.session_id.slice(0, 16)}`);
    // the worker ran in a window named after it, as a rein process of its own, on the same store
    const windows = tmux("list-windows", "-t", `rein-${final.session_id.slice(0, 16)}`, "-F", "#{window_name}").stdout.toString();
    // one run: the message reached the running worker, which did not need resuming
    expect(windows.trim().split("\n")).toEqual(["reader"]);
    const screen = tmux("capture-pane", "-p", "-t", `rein-${final.session_id.slice(0, 16)}:reader`).stdout.toString();
    expect(screen).toContain("[rein: worker reader ended; press Enter to close]");
    expect(workerTurns).toBeGreaterThanOrEqual(2);
    const shown = await w.run(["sessions", "show", final.session_id]);
    expect(shown.stdout).toMatch(/- explore s_\w+ "reader" · completed/);
    expect(r.events.filter((e) => e.type === "task_notification").map((e) => [e.name, e.status])).toEqual([["reader", "completed"]]);
  } finally {
    tmux("kill-server");
    rmSync(sockets, { recursive: true, force: true });
  }
}, 90_000);

test("task_stop of a tmux worker closes its window and stops its rein; its notification says killed", async () => {
  await using w = await world();
  const sockets = mkdtempSync(join(tmpdir(), "rein-tmux-"));
  const env = { TMUX: undefined, TMUX_PANE: undefined, TMUX_TMPDIR: sockets };
  const tmux = (...args: string[]) => Bun.spawnSync(["tmux", ...args], { env: { ...process.env, TMUX: "", TMUX_TMPDIR: sockets } });
  try {
    await Bun.write(join(w.configDir, "config.json"), JSON.stringify({ teammateMode: "tmux" }));
    let asked!: () => void;
    const workerAsked = new Promise<void>((resolve) => (asked = resolve));
    const step = (b: any) => {
      if (!isLead(b)) {
        asked();
        return { hang: true as const };
      }
      if (!body(b).includes("task_id:")) return { reply: [call("task", { description: "wait", prompt: "wait forever", subagent_type: "explore", run_in_background: true, name: "sleeper" })] };
      // the lead stops it once its rein is asking the model (it runs)
      if (!body(b).includes("Stopping")) return { reply: [call("task_stop", { task_id: "sleeper" })], waitFor: workerAsked };
      if (!body(b).includes("<task-id>")) return { reply: [text("waiting for it to stop")] };
      return { reply: [text(/<status>(\w+)<\/status>/.exec(body(b))?.[1] ?? "no status")] };
    };
    w.fake.script(...Array.from({ length: 6 }, () => ({ respond: step })));

    const r = await w.runStream(["-p", "start and stop one", "--agent", "coordinator", "--trust"], { env, timeoutMs: 60_000 });

    expect(r.code).toBe(0);
    expect(r.events.at(-1)).toMatchObject({ type: "result", status: "success", text: "killed" });
    expect(r.events.filter((e) => e.type === "task_notification").map((e) => [e.name, e.status])).toEqual([["sleeper", "killed"]]);
    // its window is gone (and with it the session rein made for it)
    expect(tmux("list-panes", "-a", "-F", "#{window_name}").stdout.toString()).not.toContain("sleeper");
    // and no rein of the worker's is left running
    const [worker] = r.events.filter((e) => e.type === "task_notification").map((e) => String(e.task_id));
    await waitFor(async () => (await pidsMatching(`${worker} --agent`)).length === 0, "the worker's rein to end", 10_000);
  } finally {
    tmux("kill-server");
    rmSync(sockets, { recursive: true, force: true });
  }
}, 90_000);
