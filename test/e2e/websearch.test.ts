// The websearch tool through the compiled binary against a SearXNG-style JSON API on 127.0.0.1:
// results reach the model as titles, URLs and snippets, domain filters apply, a deny rule keeps
// the tool from the model, a broken service is one error result, and no config means no tool.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { resultText, text, toolResultsOf, world, type World } from "./harness.ts";

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const queries: string[] = [];
const searx = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    const url = new URL(request.url);
    queries.push(`${url.pathname}?${url.searchParams.toString()}`);
    if (url.pathname === "/broken") return new Response("oops", { status: 502 });
    return Response.json({
      query: url.searchParams.get("q"),
      results: [
        { title: "Bun docs: Bun.serve", url: "https://bun.sh/docs/api/http", content: "Start an HTTP server   with Bun.serve." },
        { title: "A blog post", url: "https://blog.example.com/bun", content: "Someone wrote about Bun." },
        { title: "Not a web result", url: "javascript:alert(1)", content: "dropped" },
      ],
    });
  },
});
afterAll(() => searx.stop(true));
const base = `http://127.0.0.1:${searx.port}`;

async function configure(w: World, config: Record<string, unknown>): Promise<void> {
  await Bun.write(join(w.configDir, "config.json"), JSON.stringify(config));
}
const toolNames = (w: World, n = 0) => (w.fake.requests[n]!.body as { tools: { name: string; description: string }[] }).tools;

test.concurrent("results reach the model as titles, URLs and snippets, filtered by the call's domains", async () => {
  await using w = await world();
  await configure(w, { webSearch: { url: `${base}/search`, format: "searxng" }, permissions: { allow: ["websearch"] } });
  w.fake.script({ reply: [use("websearch", { query: "bun serve", allowed_domains: ["bun.sh"] })] }, { reply: [use("websearch", { query: "bun", blocked_domains: ["bun.sh"] })] }, { reply: [text("ok")] });
  const r = await w.run(["-p", "find it"]);
  expect(r).toMatchObject({ code: 0, stdout: "ok\n" });
  expect(queries).toContain("/search?q=bun+serve&format=json");
  const first = resultText(toolResultsOf(w.fake.requests[1]).at(-1));
  expect(first).toBe('Search results for "bun serve":\n\n1. Bun docs: Bun.serve\n   https://bun.sh/docs/api/http\n   Start an HTTP server with Bun.serve.');
  const second = resultText(toolResultsOf(w.fake.requests[2]).at(-1));
  expect(second).toContain("https://blog.example.com/bun");
  expect(second).not.toContain("bun.sh");
  expect(second).not.toContain("javascript:");
  // Deferred: named by load_tools, not sent whole.
  expect(toolNames(w).find((t) => t.name === "load_tools")?.description).toContain("websearch");
}, 30_000);

test.concurrent("a deny rule keeps websearch from the model; without webSearch configured there is no such tool", async () => {
  await using w = await world();
  await configure(w, { webSearch: { url: `${base}/search` }, permissions: { deny: ["websearch"] } });
  w.fake.script({ reply: [text("ok")] });
  expect(await w.run(["-p", "hi"])).toMatchObject({ code: 0 });
  const offered = JSON.stringify(toolNames(w));
  expect(offered).not.toContain("websearch");

  await using bare = await world();
  bare.fake.script({ reply: [use("websearch", { query: "anything" })] }, { reply: [text("ok")] });
  expect(await bare.run(["-p", "hi"])).toMatchObject({ code: 0 });
  expect(JSON.stringify(toolNames(bare))).not.toContain("websearch");
  const result = toolResultsOf(bare.fake.requests[1]).at(-1);
  expect(result?.is_error).toBe(true);
}, 30_000);

test.concurrent("a service that fails is one error result naming it; an untrusted project cannot choose the search host", async () => {
  await using w = await world();
  await configure(w, { webSearch: { url: `${base}/broken` }, permissions: { allow: ["websearch"] } });
  await Bun.write(w.path(".rein/config.json"), JSON.stringify({ webSearch: { url: "http://127.0.0.1:9/evil" } }));
  w.fake.script({ reply: [use("websearch", { query: "x y" })] }, { reply: [text("ok")] });
  const r = await w.run(["-p", "hi"]);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("ignored webSearch from");
  const result = toolResultsOf(w.fake.requests[1]).at(-1);
  expect(result?.is_error).toBe(true);
  expect(resultText(result)).toBe(`The search service at ${base} answered 502; try again later, or check webSearch.url in your config.`);
}, 30_000);

test.concurrent('"server": true sends Anthropic\'s web search tool; its blocks are kept and sent back whole; a deny rule keeps it away', async () => {
  await using w = await world();
  await configure(w, { webSearch: { server: true, maxResults: 3, allowedDomains: ["bun.sh"] } });
  const results = [{ type: "web_search_result", url: "https://bun.sh/docs", title: "Bun docs", encrypted_content: "abc", page_age: null }];
  w.fake.script(
    {
      reply: [
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "bun serve" } },
        { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: results },
        text("Bun.serve starts a server."),
      ],
    },
    { reply: [text("again")] },
  );
  const r = await w.run(["-p", "how do I serve?"]);
  expect(r).toMatchObject({ code: 0, stdout: "Bun.serve starts a server.\n" });
  const tools = (w.fake.requests[0]!.body as { tools: Record<string, unknown>[] }).tools;
  expect(tools.at(-1)).toEqual({ type: "web_search_20250305", name: "web_search", max_uses: 3, allowed_domains: ["bun.sh"] });
  expect(tools.some((t) => t.name === "websearch")).toBe(false);
  const again = await w.run(["-c", "-p", "and?"]);
  expect(again).toMatchObject({ code: 0, stdout: "again\n" });
  const sent = (w.fake.requests[1]!.body as { messages: { role: string; content: Record<string, unknown>[] }[] }).messages;
  const assistant = sent.find((m) => m.role === "assistant")!;
  expect(assistant.content.slice(0, 2)).toEqual([
    { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "bun serve" } },
    { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: results },
  ]);

  await using denied = await world();
  await configure(denied, { webSearch: { server: true }, permissions: { deny: ["websearch"] } });
  denied.fake.script({ reply: [text("ok")] });
  expect(await denied.run(["-p", "hi"])).toMatchObject({ code: 0 });
  expect(JSON.stringify((denied.fake.requests[0]!.body as { tools: unknown[] }).tools)).not.toContain("web_search");
}, 30_000);
