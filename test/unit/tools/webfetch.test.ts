// webfetch against a real local server (127.0.0.1, port 0), and the HTML-to-text converter alone.
import { afterAll, describe, expect, test } from "bun:test";
import * as v from "valibot";
import webfetch from "../../../tools/webfetch.ts";
import { htmlToText } from "../../../tools/lib/html-to-text.ts";
import { type TestContext, toolContext } from "../../support/tool-context.ts";

const PAGE = `<!DOCTYPE html>
<html><head><title>Ignored title</title><style>body { color: red }</style></head>
<body>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <h1>Fish &amp; Chips</h1>
  <p>Fried   <b>daily</b>,
     since 1902 &#8212; see <a href="/menu?x=1&amp;y=2">the menu</a>.</p>
  <script>if (a < b) document.write("<p>injected</p>");</script>
  <h2>Prices</h2>
  <ul><li>Cod &pound;9</li><li>Haddock &#x20AC;10</li></ul>
</body></html>`;

const MB = 1024 * 1024;
let hangArrived = Promise.withResolvers<void>();

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request): Response | Promise<Response> {
    const path = new URL(request.url).pathname;
    switch (path) {
      case "/page":
        return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
      case "/plain":
        return new Response("just some text\n  with spacing kept\n", { headers: { "content-type": "text/plain" } });
      case "/long":
        return new Response("x".repeat(5000), { headers: { "content-type": "text/plain" } });
      case "/data.json":
        return Response.json({ name: "rein", tools: ["bash", "webfetch"] });
      case "/notes.md":
        return new Response("# Notes\n\n- keep *this*\n", { headers: { "content-type": "text/markdown" } });
      case "/missing":
        return new Response("<html><body><h1>Not here</h1><p>No page at this path.</p></body></html>", {
          status: 404,
          headers: { "content-type": "text/html" },
        });
      case "/r1":
        return Response.redirect("/r2", 302);
      case "/r2":
        return Response.redirect(`${server.url.origin}/r3`, 301);
      case "/r3":
        return new Response("landed", { headers: { "content-type": "text/plain" } });
      case "/image":
        return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), { headers: { "content-type": "image/png" } });
      case "/huge":
        return new Response(endless(), { headers: { "content-type": "text/plain" } });
      case "/hang":
        hangArrived.resolve();
        return new Promise<Response>(() => {}); // never answers
    }
    const loop = /^\/loop\/(\d+)$/.exec(path);
    if (loop) return Response.redirect(`/loop/${Number(loop[1]) + 1}`, 302);
    return new Response("unknown route", { status: 500 });
  },
});

afterAll(() => server.stop(true));

/** A body that never ends: 64 KB chunks for as long as the reader pulls. */
function endless(): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode("y".repeat(64 * 1024));
  return new ReadableStream({ pull: (controller) => controller.enqueue(chunk) });
}

const at = (path: string) => `${server.url.origin}${path}`;

type Result = { output: string; isError: boolean; metadata?: Record<string, unknown> };

/** Validates the input as the loop does, then runs the tool. */
async function fetchUrl(input: unknown, ctx: TestContext = toolContext(import.meta.dir)): Promise<Result> {
  const parsed = v.parse(webfetch.input, input);
  const result = await webfetch.run(parsed, ctx);
  if (typeof result === "string") return { output: result, isError: false };
  return { output: result.output, isError: result.isError === true, metadata: result.metadata };
}

describe("webfetch", () => {
  test("an HTML page becomes readable text under a URL (status, type) line", async () => {
    const result = await fetchUrl({ url: at("/page") });
    expect(result.isError).toBe(false);
    expect(result.output).toBe(
      [
        `${at("/page")} (200, text/html)`,
        "",
        "# Fish & Chips",
        "",
        `Fried daily, since 1902 — see the menu (${at("/menu?x=1&y=2")}).`,
        "",
        "## Prices",
        "",
        "- Cod £9",
        "- Haddock €10",
      ].join("\n"),
    );
    expect(result.metadata).toEqual({ url: at("/page"), status: 200, contentType: "text/html" });
  });

  test("plain text, JSON and markdown pass through as they are", async () => {
    const plain = await fetchUrl({ url: at("/plain") });
    expect(plain.output).toBe(`${at("/plain")} (200, text/plain)\n\njust some text\n  with spacing kept`);
    const json = await fetchUrl({ url: at("/data.json") });
    expect(json.output).toBe(`${at("/data.json")} (200, application/json)\n\n{"name":"rein","tools":["bash","webfetch"]}`);
    const markdown = await fetchUrl({ url: at("/notes.md") });
    expect(markdown.output).toBe(`${at("/notes.md")} (200, text/markdown)\n\n# Notes\n\n- keep *this*`);
  });

  test("output is cut at max_chars with a note saying how to see more", async () => {
    const result = await fetchUrl({ url: at("/long"), max_chars: 1000 });
    expect(result.isError).toBe(false);
    expect(result.output).toContain(`\n\n${"x".repeat(1000)}\n\n[Showing the first 1000 of 5000 characters.`);
    expect(result.output).not.toContain("x".repeat(1001));
  });

  test("a 404 is an error with the status and the start of the body", async () => {
    const result = await fetchUrl({ url: at("/missing") });
    expect(result.isError).toBe(true);
    expect(result.output).toStartWith(`${at("/missing")} (404, text/html)\nThe server answered 404 Not Found.`);
    expect(result.output).toContain("Check the URL");
    expect(result.output).toContain("Start of the body:\n# Not here\n\nNo page at this path.");
  });

  test("redirects are followed and the final URL is reported", async () => {
    const result = await fetchUrl({ url: at("/r1") });
    expect(result.isError).toBe(false);
    expect(result.output).toBe(`${at("/r3")} (200, text/plain)\n\nlanded`);
    expect(result.metadata?.url).toBe(at("/r3"));
  });

  test("a redirect to another origin is not followed: the model must fetch it by name, which asks again", async () => {
    const elsewhere = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.redirect(at("/plain"), 302) });
    try {
      const result = await fetchUrl({ url: `${elsewhere.url.origin}/go` });
      expect(result.isError).toBe(true);
      expect(result.output).toBe(`${elsewhere.url.origin}/go redirected to another site, ${at("/plain")}; fetch that URL directly if it is what you need.`);
    } finally {
      elsewhere.stop(true);
    }
  });

  test("more than 5 redirects is an error", async () => {
    const result = await fetchUrl({ url: at("/loop/0") });
    expect(result.isError).toBe(true);
    expect(result.output).toBe(
      `${at("/loop/0")} redirected more than 5 times (last to ${at("/loop/6")}); giving up. Fetch the last URL directly if it looks right.`,
    );
  });

  test("an endless body is read up to 5 MB and the output says it was cut", async () => {
    const result = await fetchUrl({ url: at("/huge") });
    expect(result.isError).toBe(false);
    expect(result.output).toContain(`[Showing the first 50000 of ${5 * MB} characters.`);
    expect(result.output).toContain("[The body was larger than 5 MB; only the first 5 MB was read.]");
  });

  test("ctx.abort() ends a fetch from a server that never answers, with an error", async () => {
    hangArrived = Promise.withResolvers<void>();
    const ctx = toolContext(import.meta.dir);
    const pending = fetchUrl({ url: at("/hang") }, ctx);
    await hangArrived.promise;
    ctx.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.output).toBe(`Interrupted by the user while fetching ${at("/hang")}.`);
  });

  test("the time cap ends a fetch from a server that never answers", async () => {
    process.env.REIN_WEBFETCH_TIMEOUT_MS = "50";
    try {
      const result = await fetchUrl({ url: at("/hang") });
      expect(result.isError).toBe(true);
      expect(result.output).toStartWith(`Timed out after 0.05 s fetching ${at("/hang")}: the server did not answer in time.`);
    } finally {
      delete process.env.REIN_WEBFETCH_TIMEOUT_MS;
    }
  });

  test("a binary content type is an error naming the type", async () => {
    const result = await fetchUrl({ url: at("/image") });
    expect(result.isError).toBe(true);
    expect(result.output).toBe(
      `${at("/image")} (200, image/png)\nThis is image/png content, which webfetch cannot show as text. Look for an HTML or text version of the page instead.`,
    );
  });

  test("only http and https URLs are fetched", async () => {
    const file = await fetchUrl({ url: "file:///etc/passwd" });
    expect(file.isError).toBe(true);
    expect(file.output).toBe("Only http and https URLs can be fetched, not file:. To read a local file use the read tool.");
    const ftp = await fetchUrl({ url: "ftp://example.com/x" });
    expect(ftp.output).toStartWith("Only http and https URLs can be fetched, not ftp:.");
    const junk = await fetchUrl({ url: "not a url" });
    expect(junk).toEqual({ output: '"not a url" is not a valid URL. Give a full URL such as https://example.com/page.', isError: true });
    expect(webfetch.permissions?.({ url: "file:///etc/passwd" }, { cwd: "/" })).toEqual([]);
  });

  test("a connection refused is an error telling the model to check the URL", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `${closed.url.origin}/gone`;
    await closed.stop(true);
    const result = await fetchUrl({ url });
    expect(result.isError).toBe(true);
    expect(result.output).toStartWith(`Could not fetch ${url}: `);
    expect(result.output).toEndWith("Check the URL; if it is right, the site may be down.");
  });

  test("asks for webfetch on the URL; always allows its origin", () => {
    expect(webfetch.permissions?.({ url: "https://docs.example.com/a/b?c=1" }, { cwd: "/" })).toEqual([
      { permission: "webfetch", pattern: "https://docs.example.com/a/b?c=1", always: ["https://docs.example.com/*"] },
    ]);
    expect(webfetch.readOnly).toBe(true);
  });

  test("max_chars below 1000 fails validation", () => {
    expect(v.safeParse(webfetch.input, { url: "https://example.com", max_chars: 10 }).success).toBe(false);
  });
});

describe("htmlToText", () => {
  test("drops script, style, nav and head, even with < inside a script", () => {
    const html = `<html><head><title>T</title><script>var s = "</p><p>";</script></head>
      <body><nav>Menu</nav><style>p{}</style><p>Kept</p><script>if (a<b) x()</script><noscript>Enable JS</noscript></body></html>`;
    expect(htmlToText(html)).toBe("Kept");
  });

  test("a <head> without a close tag ends where <body> starts", () => {
    expect(htmlToText("<html><head><meta charset=utf-8><title>T</title><body><p>Body text</p>")).toBe("Body text");
  });

  test("headings become # lines and paragraphs are separated by blank lines", () => {
    expect(htmlToText("<h1>One</h1><p>a</p><h3>Three</h3><p>b</p><h2></h2><p>c</p>")).toBe("# One\n\na\n\n### Three\n\nb\n\nc");
  });

  test("list items become - lines, nested ones indented", () => {
    const html = "<p>Before</p><ul><li>One</li><li><p>Two</p><ol><li>Two A</li></ol></li><li></li></ul><p>After</p>";
    expect(htmlToText(html)).toBe("Before\n\n- One\n- Two\n  - Two A\n\nAfter");
  });

  test("links become text (url), resolved against the page; anchors and bare URLs stay plain", () => {
    const html = `<p><a href="guide.html">Guide</a>, <a href='#top'>top</a>, <a href=https://x.org/>https://x.org/</a>, <a href="/x"></a></p>`;
    expect(htmlToText(html, "https://example.com/docs/")).toBe("Guide (https://example.com/docs/guide.html), top, https://x.org/,");
  });

  test("entities are decoded, numeric ones included; unknown ones stay as written", () => {
    expect(htmlToText("<p>&lt;b&gt; &amp; &quot;q&quot; &#39;s&#39; &#x263A; &#128512; &#0; &bogus; &copy;</p>")).toBe(
      `<b> & "q" 's' ☺ 😀 \ufffd &bogus; ©`,
    );
  });

  test("whitespace collapses outside <pre> and is kept inside it", () => {
    const html = "<div>  many\n\n   spaces\there </div><pre>\nline 1\n    indented &lt;x&gt;\n</pre><p>a<br>b</p>";
    expect(htmlToText(html)).toBe("many spaces here\n\nline 1\n    indented <x>\n\na\nb");
  });

  test("table cells are spaced and rows are lines; comments vanish, unclosed ones too", () => {
    const html = "<table><tr><td>a</td><td>b</td></tr><tr><th>c</th> <td>d</td></tr></table><!-- hidden --><p>end</p><!-- open";
    expect(htmlToText(html)).toBe("a b\nc d\n\nend");
  });

  test("a self-closed svg drops nothing after it", () => {
    expect(htmlToText("<p>icon <svg/> label</p><svg><text>drawn</text></svg><p>more</p>")).toBe("icon label\n\nmore");
  });
});
