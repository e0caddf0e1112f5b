// A terminal session served over HTTP (`rein --serve` in the terminal, or /serve): a client on its
// event stream follows it across a Tab to another agent (the terminal reopens the session then).
import { describe, expect, test } from "bun:test";
import { terminalSuite } from "../support/terminal-start.ts";
import { hasTmux } from "../support/tmux.ts";

const suite = terminalSuite("terminal-serve");
const TOKEN = "terminal-serve-token-32-chars-ok";

describe.skipIf(!hasTmux)("a served terminal session", () => {
  test("the stream a client opened before a Tab carries the turn the next agent runs", async () => {
    // No heartbeat in the test's time: only the session's own notifications wake the stream.
    const { pane } = await suite.start({ name: "tab", args: "--serve --port 0", env: { REIN_SERVER_TOKEN: TOKEN, REIN_SSE_HEARTBEAT_MS: "3600000" } });
    const shown = await pane.until(/served on http:\/\/\S+?\/sessions\/s_\w+/);
    const [, url, id] = /served on (http:\/\/\S+?)\/sessions\/(s_\w+)/.exec(shown)!;
    const res = await fetch(`${url}/sessions/${id}/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let raw = "";
    const read = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        raw += decoder.decode(value, { stream: true });
        if (raw.includes('"type":"result"')) return;
      }
    })();

    suite.fake.script({ reply: [{ type: "text", text: "Planned on the stream." }] });
    pane.keys("Tab");
    await pane.until(/^plan › $/m);
    pane.keys("make a plan", "Enter");
    await pane.until(/plan · claude-sonnet-5-5 · context/);
    await read;
    await reader.cancel();
    const frames = raw.split("\n\n");
    expect(frames.find((f) => f.includes("event: session"))).toContain('"agent":"plan"');
    expect(frames.filter((f) => f.includes("event: text_delta")).map((f) => JSON.parse(f.split("data: ")[1]!).text).join("")).toBe("Planned on the stream.");
    pane.keys("C-d");
    await pane.until("EXIT=0");
  }, 40_000);
});
