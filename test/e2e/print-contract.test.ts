// The print-mode contract (formats, stdin, exit codes, faults) against each API family: the
// Anthropic fake, the OpenAI-compatible fake in its plain dialect, and its Ollama-like one reached
// through a configured local preset. Every request must be valid for the API it went to.
import { describe, expect, test } from "bun:test";
import { BACKENDS, backend } from "./backends.ts";
import { parseEvents, world } from "./harness.ts";

const say = (text: string) => ({ reply: [{ type: "text" as const, text }] });

for (const name of BACKENDS) {
  describe(`print mode on ${name}`, () => {
    const setup = async () => {
      const w = await world();
      const b = await backend(w, name);
      const run = (args: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) =>
        w.run([...args, ...b.args], { env: { ...b.env, ...opts.env }, ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}) });
      return {
        w,
        b,
        run,
        async [Symbol.asyncDispose]() {
          expect(b.problems()).toEqual([]);
          await b.close();
          await w[Symbol.asyncDispose]();
        },
      };
    };

    test.concurrent("text, json and stream-json: the answer, one result object, events from session to result naming the model", async () => {
      await using s = await setup();
      s.b.script(say("plain answer"), say("json answer"), say("streamed answer"));
      const text = await s.run(["-p", "hi"]);
      expect(text).toMatchObject({ code: 0, stdout: "plain answer\n" });
      const json = await s.run(["-p", "hi", "--output-format", "json"]);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ type: "result", status: "success", text: "json answer" });
      const streamed = await s.run(["-p", "hi", "--output-format", "stream-json"]);
      const events = parseEvents(streamed.stdout);
      const model = name === "anthropic" ? "claude-sonnet-5-5" : name === "openai" ? "openai/gpt-5.2" : "ollama/qwen3-coder";
      expect(events[0]).toMatchObject({ type: "session", model });
      expect(events.at(-1)).toMatchObject({ type: "result", status: "success", text: "streamed answer" });
      expect(events.find((e) => e.type === "assistant")).toMatchObject({ model });
    });

    test.concurrent("piped stdin is added to the prompt", async () => {
      await using s = await setup();
      s.b.script(say("reviewed"));
      const r = await s.run(["-p", "review this"], { stdin: "diff --git a/x b/x\n+added line\n" });
      expect(r).toMatchObject({ code: 0, stdout: "reviewed\n" });
      const sent = s.b.lastUserText(s.b.requests()[0]!);
      expect(sent).toContain("review this");
      expect(sent).toContain("+added line");
    });

    test.concurrent("a tool call runs and its result goes back in the API's own shape", async () => {
      await using s = await setup();
      s.b.script({ reply: [{ type: "tool_use", name: "bash", input: { command: "echo tool-ran-here" } }] }, say("the tool said so"));
      const r = await s.run(["-p", "run it", "--allow", "bash(echo *)"]);
      expect(r).toMatchObject({ code: 0, stdout: "the tool said so\n" });
      expect(s.b.requests()).toHaveLength(2);
      expect(s.b.toolResults(s.b.requests()[1]!).join("")).toContain("tool-ran-here");
    });

    test.concurrent("401: exit 1, the key was refused, not retried", async () => {
      await using s = await setup();
      s.b.script({ error: 401 }, say("must not be reached"));
      const r = await s.run(["-p", "hi"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("the API key was refused");
      expect(r.stdout).toBe("");
      expect(s.b.requests()).toHaveLength(1);
      s.b.requests().length = 0;
    });

    test.concurrent("429 with retry-after 0, then success: exit 0 after two requests", async () => {
      await using s = await setup();
      s.b.script({ error: 429, retryAfter: 0 }, say("after the wait"));
      const r = await s.run(["-p", "hi"]);
      expect(r).toMatchObject({ code: 0, stdout: "after the wait\n" });
      expect(r.stderr).toContain("retrying");
      expect(s.b.requests()).toHaveLength(2);
    });

    test.concurrent("5xx on every attempt: exit 1 after REIN_RETRY_MAX_ATTEMPTS requests", async () => {
      await using s = await setup();
      s.b.script({ error: 500 }, { error: 500 }, { error: 500 });
      const r = await s.run(["-p", "hi"], { env: { REIN_RETRY_MAX_ATTEMPTS: "3" } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("API error 500");
      expect(r.stderr).toContain("after 3 attempts");
      expect(s.b.requests()).toHaveLength(3);
    });

    test.concurrent("a cut stream is retried and only the good answer is printed", async () => {
      await using s = await setup();
      s.b.script({ cut: [{ type: "text", text: "BROKEN half of an answer that never ends" }] }, say("the good answer"));
      const r = await s.run(["-p", "hi"]);
      expect(r).toMatchObject({ code: 0, stdout: "the good answer\n" });
    });

    test.concurrent("malformed SSE on every attempt: exit 1 with a clear message", async () => {
      await using s = await setup();
      s.b.script({ malformed: true }, { malformed: true }, { malformed: true });
      const r = await s.run(["-p", "hi"], { env: { REIN_RETRY_MAX_ATTEMPTS: "3" } });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/malformed/i);
      expect(r.stderr).not.toContain("internal error");
    });

    test.concurrent("a hang: exit 1 within the bounded wait, saying the API sent nothing", async () => {
      await using s = await setup();
      s.b.script({ hang: true }, { hang: true }, { hang: true }, { hang: true });
      const r = await s.run(["-p", "hi"], { env: { REIN_STREAM_IDLE_MS: "200", REIN_RETRY_MAX_WAIT_MS: "500", REIN_RETRY_MAX_ATTEMPTS: "4" } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("sent nothing");
      s.b.requests().length = 0;
    });
  });
}

test.concurrent("a model of a provider without its key: exit 2 naming the variable, nothing sent", async () => {
  await using w = await world();
  const r = await w.run(["-p", "hi", "-m", "openai/gpt-5.2"], { env: { OPENAI_API_KEY: undefined } });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("no API key for provider openai: set OPENAI_API_KEY");
});

test.concurrent("an unknown provider: exit 2 listing the known ones", async () => {
  await using w = await world();
  const r = await w.run(["-p", "hi", "-m", "nosuch/model"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('unknown provider "nosuch"');
  expect(r.stderr).toContain("ollama");
});

test.concurrent("no provider's key reaches a command: OpenAI's, and a configured provider's env:VAR with a harmless-looking name, even when passed through", async () => {
  await using w = await world();
  const b = await backend(w, "openai");
  try {
    const config = { providers: { gateway: { api: "openai-chat", baseURL: "https://gw.example/v1", apiKey: "env:GWCRED" } }, env: { passthrough: ["OPENAI_API_KEY", "GWCRED"] } };
    await Bun.write(`${w.configDir}/config.json`, JSON.stringify(config));
    b.script({ reply: [{ type: "tool_use", name: "bash", input: { command: "env" } }] }, say("done"));
    const r = await w.run(["-p", "show env", "--allow", "bash(env)", ...b.args], { env: { ...b.env, GWCRED: "gateway-credential-value" } });
    expect(r.code).toBe(0);
    const output = b.toolResults(b.requests()[1]!).join("");
    expect(output).toContain("REIN=1");
    expect(output).not.toContain("sk-openai-test");
    expect(output).not.toContain("gateway-credential-value");
  } finally {
    await b.close();
  }
});

test.concurrent("--help lists every exit code print mode has, 5 included", async () => {
  await using w = await world();
  const r = await w.run(["--help"]);
  expect(r.code).toBe(0);
  const codes = r.stdout.slice(r.stdout.indexOf("Exit codes:")).replace(/\s+/g, " ");
  for (const code of ["0 success", "1 run failed", "2 usage", "3 stopped for a permission", "4 turn limit", "5 stopped by a hook", "130 interrupted"]) expect(codes).toContain(code);
});
