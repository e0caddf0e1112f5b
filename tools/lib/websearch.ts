// The websearch tool (Claude Code: WebSearch): a query sent to the search API the user configured
// (`webSearch` in rein's config; SearXNG's JSON API: `GET URL?q=QUERY&format=json` answering
// `{"results": [{"title", "url", "content"}]}`), results as titles, URLs and snippets, filtered by
// the call's allowed and blocked domains. Its own permission, `websearch`: a deny keeps it away.
import * as v from "valibot";
import { defineTool, type Tool } from "rein/tool";
import description from "../../prompts/tools/websearch.txt" with { type: "text" };

export type WebSearchSettings = { url?: string; server?: boolean; format?: "searxng"; maxResults?: number; allowedDomains?: string[]; blockedDomains?: string[] };

/** Anthropic's server-side web search tool, as the Messages API takes it. */
export function serverSearchTool(settings: WebSearchSettings): Record<string, unknown> {
  return {
    type: "web_search_20250305",
    name: "web_search",
    max_uses: settings.maxResults ?? 5,
    ...(settings.allowedDomains?.length ? { allowed_domains: settings.allowedDomains } : {}),
    ...(settings.blockedDomains?.length ? { blocked_domains: settings.blockedDomains } : {}),
  };
}

const TIMEOUT_MS = 15_000;
const DEFAULT_RESULTS = 10;
const SNIPPET_CHARS = 300;

type Result = { title: string; url: string; content: string };

export function websearchTool(settings: WebSearchSettings & { url: string }): Tool {
  const domains = v.optional(v.array(v.pipe(v.string(), v.trim(), v.minLength(1))));
  return defineTool({
    name: "websearch",
    description,
    input: v.object({ query: v.pipe(v.string(), v.trim(), v.minLength(2, "a query of at least 2 characters")), allowed_domains: domains, blocked_domains: domains }),
    readOnly: true,
    permissions: ({ query }) => [{ permission: "websearch", pattern: query, always: ["*"] }],
    async run({ query, allowed_domains, blocked_domains }, ctx) {
      const url = new URL(settings.url);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      const timeout = AbortSignal.timeout(Number(process.env.REIN_WEBSEARCH_TIMEOUT_MS) || TIMEOUT_MS);
      let body: unknown;
      try {
        const response = await fetch(url, { signal: AbortSignal.any([ctx.signal, timeout]), headers: { accept: "application/json", "user-agent": "rein (coding agent)" }, redirect: "error" });
        if (!response.ok) return { output: `The search service at ${url.origin} answered ${response.status}; try again later, or check webSearch.url in your config.`, isError: true };
        body = await response.json();
      } catch (error) {
        if (ctx.signal.aborted) return { output: "Interrupted by the user while searching.", isError: true };
        if (timeout.aborted) return { output: `The search service at ${url.origin} did not answer within ${TIMEOUT_MS / 1000} s; try again later.`, isError: true };
        return { output: `Could not search at ${url.origin}: ${error instanceof Error ? error.message : String(error)}. Check webSearch.url in your config.`, isError: true };
      }
      const results = resultsOf(body);
      if (!results) return { output: `The search service at ${url.origin} did not answer with SearXNG's JSON ({"results": [...]}); check webSearch.url and that its JSON format is enabled.`, isError: true };
      const kept = results.filter((r) => wanted(r.url, allowed_domains, blocked_domains)).slice(0, settings.maxResults ?? DEFAULT_RESULTS);
      if (!kept.length) return `No results for "${query}"${allowed_domains?.length || blocked_domains?.length ? " within the domain filters" : ""}.`;
      const lines = kept.map((r, i) => `${i + 1}. ${r.title || r.url}\n   ${r.url}${r.content ? `\n   ${snippet(r.content)}` : ""}`);
      return { output: `Search results for "${query}":\n\n${lines.join("\n\n")}`, metadata: { urls: kept.map((r) => r.url) } };
    },
  });
}

function resultsOf(body: unknown): Result[] | undefined {
  const list = body && typeof body === "object" ? (body as { results?: unknown }).results : undefined;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((item) => {
    if (!item || typeof item !== "object") return [];
    const { title, url, content } = item as Record<string, unknown>;
    if (typeof url !== "string" || !/^https?:\/\//i.test(url)) return [];
    return [{ title: typeof title === "string" ? title.trim() : "", url, content: typeof content === "string" ? content : "" }];
  });
}

function wanted(url: string, allowed: readonly string[] | undefined, blocked: readonly string[] | undefined): boolean {
  const host = URL.parse(url)?.hostname.toLowerCase();
  if (!host) return false;
  const within = (domain: string) => {
    const d = domain.toLowerCase().replace(/^\*?\./, "");
    return host === d || host.endsWith(`.${d}`);
  };
  if (blocked?.some(within)) return false;
  return !allowed?.length || allowed.some(within);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS - 3)}...` : flat;
}
