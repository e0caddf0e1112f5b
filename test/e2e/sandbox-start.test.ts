// The shared read-only sandbox's start, as the compiled binary makes it: it starts while the model
// still writes the first bash call (the reply below holds its tool call open until a bwrap has
// started), and it is the only bubblewrap of the run: no probe sandbox of its own, no
// `bwrap --version`, since the shared one saying it is ready shows that bubblewrap works here.
// A bwrap on PATH that logs each command line and runs the real one sees every start; one that does
// not know --perms (before bubblewrap 0.5) shows the loop making pid 1's copy itself instead.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { encodeSse, replyEvents, type ReplyContext } from "../fake/reply.ts";
import { bash, resultText, text, toolResultsOf, world } from "./harness.ts";
import { sandboxAvailable } from "../../tools/lib/sandbox.ts";

const available = sandboxAvailable().ok;
const realBwrap = Bun.which("bwrap");

/** A streamed reply of one bash call whose events after the call's start wait until `ready()` (or 20 s, so a failure is a failed assertion, not a hang). */
function heldCall(command: string, ready: () => boolean, seen: { atRelease: boolean }): (req: Request) => Response {
  return () => {
    const ctx: ReplyContext = { model: "claude-fake", inputTokens: 100, nextId: (prefix) => `${prefix}_held` };
    const events = replyEvents({ blocks: [{ type: "tool_use", id: "toolu_held", name: "bash", input: { command } }] }, ctx);
    const at = events.findIndex((e) => e.event === "content_block_start") + 1;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (list: typeof events) => controller.enqueue(new TextEncoder().encode(list.map(encodeSse).join("")));
        send(events.slice(0, at));
        for (let waited = 0; !ready() && waited < 20_000; waited += 20) await Bun.sleep(20);
        seen.atRelease = ready();
        send(events.slice(at));
        controller.close();
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  };
}

test.skipIf(!available || !realBwrap)("the first read-only call's sandbox starts while the model writes the call, and no probe sandbox runs beside it", async () => {
  await using w = await world();
  const bin = join(w.root, "logging-bin");
  const log = join(w.root, "bwrap.log");
  await mkdir(bin);
  await writeFile(join(bin, "bwrap"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realBwrap}' "$@"\n`);
  await chmod(join(bin, "bwrap"), 0o755);
  const started = () => existsSync(log) && readFileSync(log, "utf8").includes("--noprofile");
  const seen = { atRelease: false };
  w.fake.script({ raw: heldCall("echo from-the-shared-sandbox $$", started, seen) }, { reply: [text("done")] });

  const r = await w.run(["-p", "go"], { env: { PATH: `${bin}:${process.env.PATH}` } });

  expect(r.code).toBe(0);
  expect(seen.atRelease).toBe(true); // the sandbox had started before the call was whole
  const output = resultText(toolResultsOf(w.fake.requests[1])[0]);
  expect(output).toBe("from-the-shared-sandbox 1\n"); // the shared sandbox's calls are its pid 1's subshells
  const starts = readFileSync(log, "utf8").trim().split("\n");
  expect(starts).toHaveLength(1); // neither the probe (`bwrap ... -- true`) nor `bwrap --version`
  expect(starts[0]).toContain("--unshare-pid --as-pid-1 --unshare-net");
});

test.skipIf(!available || !realBwrap)("where bwrap cannot start a sandbox, a read-only call runs as the session's setting says (by default unsandboxed)", async () => {
  await using w = await world();
  const bin = join(w.root, "failing-bin");
  await mkdir(bin);
  await writeFile(join(bin, "bwrap"), "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n");
  await chmod(join(bin, "bwrap"), 0o755);
  w.fake.script({ reply: [bash("echo ran $$")] }, { reply: [text("done")] });

  const r = await w.run(["-p", "go"], { env: { PATH: `${bin}:${process.env.PATH}` } });

  expect(r.code).toBe(0);
  const output = resultText(toolResultsOf(w.fake.requests[1])[0]);
  // the default mode (sandbox off) runs it unsandboxed: its shell has a pid of the host
  expect(output).toMatch(/^ran \d+\n$/);
  expect(Number(output.split(" ")[1])).toBeGreaterThan(2);
});

test.skipIf(!available || !realBwrap)("a bwrap too old to write pid 1's copy (no --perms, before 0.5) still gets the shared sandbox: the loop makes the copy", async () => {
  await using w = await world();
  const bin = join(w.root, "old-bin");
  const log = join(w.root, "bwrap.log");
  await mkdir(bin);
  const script = `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\ncase " $* " in *" --perms "*) echo 'bwrap: Unknown option --perms' >&2; exit 1;; esac\nexec '${realBwrap}' "$@"\n`;
  await writeFile(join(bin, "bwrap"), script);
  await chmod(join(bin, "bwrap"), 0o755);
  w.fake.script({ reply: [bash("echo shared $$; type nosuch-command")] }, { reply: [text("done")] });

  const r = await w.run(["-p", "go"], { env: { PATH: `${bin}:${process.env.PATH}` } });

  expect(r.code).toBe(0);
  // pid 1's subshell, with bash's own name in its messages
  expect(resultText(toolResultsOf(w.fake.requests[1])[0])).toBe("Exit code 1\nshared 1\nbash: line 1: type: nosuch-command: not found\n");
  const starts = readFileSync(log, "utf8").trim().split("\n");
  expect(starts).toHaveLength(2);
  expect(starts[0]).toContain("--perms 0111 --file 3 /dev/.rein-bash");
  expect(starts[1]).not.toContain("--perms");
  expect(starts[1]).toContain("install -m 0111");
});
