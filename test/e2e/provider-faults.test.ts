// Print mode over provider faults (issue 14): a silent provider, an error page, a 200 carrying an
// error. Each ends with exit 1 and one readable line, within a bounded wait.
import { expect, test } from "bun:test";
import { parseEvents, world } from "./harness.ts";

test.concurrent("a provider that accepts the connection and sends nothing: exit 1 once REIN_RETRY_MAX_WAIT_MS has passed, each retry shown", async () => {
  await using w = await world();
  w.fake.script(...Array.from({ length: 20 }, () => ({ hang: true as const })));
  const env = { REIN_STREAM_IDLE_MS: "200", REIN_RETRY_MAX_WAIT_MS: "1500", REIN_RETRY_MAX_ATTEMPTS: "20" };
  const r = await w.run(["-p", "hi", "--output-format", "stream-json"], { env });
  expect(r.code).toBe(1);
  const events = parseEvents(r.stdout);
  const retries = events.filter((e) => e.type === "retry");
  expect(retries.length).toBeGreaterThanOrEqual(1);
  expect(retries.length).toBeLessThan(19);
  expect(events.at(-1)).toMatchObject({ type: "result", status: "error" });
  expect(events.at(-1)!.error).toContain("without an answer");
  expect(retries.every((e) => String(e.reason).startsWith("the API sent nothing for 0.2s"))).toBe(true);
  w.fake.reset();
});

test.concurrent("a 503 with a 50 KB HTML page: stderr holds a summary per retry, not the page", async () => {
  await using w = await world();
  const page = `<html><head><title>503 Service Unavailable</title></head><body><h1>No server is available</h1>${"<p>padding</p>".repeat(4000)}</body></html>`;
  const step = { error: 503, body: page, headers: { "content-type": "text/html" } };
  w.fake.script(step, step, step);
  const r = await w.run(["-p", "hi"], { env: { REIN_RETRY_MAX_ATTEMPTS: "3" } });
  expect(r.code).toBe(1);
  expect(page.length).toBeGreaterThan(50_000);
  expect(r.stderr.length).toBeLessThan(2_000);
  expect(r.stderr).toContain('"503 Service Unavailable": No server is available');
  expect(r.stderr).not.toContain("padding");
  expect(r.stderr.match(/retrying in/g)).toHaveLength(2);
});

test.concurrent("a 200 whose body is an error: exit 1 with that error, never a silent empty answer", async () => {
  await using w = await world();
  const body = JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "model: no such model claude-nope" } });
  w.fake.script({ raw: () => new Response(body, { headers: { "content-type": "application/json" } }) });
  const r = await w.run(["-p", "hi"]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("model: no such model claude-nope");
  expect(w.fake.requests).toHaveLength(1);
});
