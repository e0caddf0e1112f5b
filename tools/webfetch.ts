// Fetches a URL and returns it as text. GET only, http(s) only; redirects are followed by hand (at
// most 5, same origin only) so the final URL is known; the body is read up to 5 MB; HTML is turned
// into text. It connects to the addresses the permission check judged for the host (pinned by the
// engine), never to what the name resolves to a moment later.
import { checkServerIdentity } from "node:tls";
import * as v from "valibot";
import { defineTool, pinnedAddresses } from "rein/tool";
import description from "../prompts/tools/webfetch.txt" with { type: "text" };
import { htmlToText } from "./lib/html-to-text.ts";

const DEFAULT_TIMEOUT_MS = 30_000;
/** Overrides the time cap, in milliseconds (tests use a short one). */
const TIMEOUT_ENV = "REIN_WEBFETCH_TIMEOUT_MS";
const MAX_BODY_BYTES = 5 * 1024 * 1024;
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const ERROR_BODY_CHARS = 500;
const DEFAULT_MAX_CHARS = 50_000;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HEADERS = {
  "user-agent": "rein (coding agent)",
  accept: "text/markdown, text/html;q=0.9, text/plain;q=0.8, application/json;q=0.8, */*;q=0.5",
};

export default defineTool({
  name: "webfetch",
  description,
  input: v.object({
    url: v.string(),
    max_chars: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000))),
  }),
  permissions: ({ url }) => {
    const parsed = httpUrl(url);
    // A URL that cannot be fetched touches nothing; run() tells the model why.
    if (typeof parsed === "string") return [];
    return [{ permission: "webfetch", pattern: url, always: [`${parsed.origin}/*`] }];
  },
  readOnly: true,
  async run({ url, max_chars }, ctx) {
    const start = httpUrl(url);
    if (typeof start === "string") return { output: start, isError: true };
    const timeoutMs = timeoutFromEnv();
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    try {
      const fetched = await follow(start, signal);
      if (typeof fetched === "string") return { output: fetched, isError: true };
      const { response, finalUrl } = fetched;
      const type = mimeType(response.headers.get("content-type"));
      const header = `${finalUrl} (${response.status}, ${type || "no content type"})`;
      const metadata = { url: finalUrl, status: response.status, contentType: type };
      if (!response.ok) return { output: await failure(header, response, type, finalUrl), isError: true, metadata };

      const kind = kindOf(type);
      if (kind === "binary") {
        await response.body?.cancel();
        return { output: binaryMessage(header, type), isError: true, metadata };
      }
      const body = await readCapped(response.body, MAX_BODY_BYTES);
      const text = decode(body.bytes, response.headers.get("content-type"));
      const shown = kind === "sniff" ? sniffed(text, finalUrl) : kind === "html" ? htmlToText(text, finalUrl) : text;
      if (shown === undefined) return { output: binaryMessage(header, type), isError: true, metadata };
      const notes = body.cut ? ["[The body was larger than 5 MB; only the first 5 MB was read.]"] : [];
      return { output: render(header, shown, max_chars ?? DEFAULT_MAX_CHARS, notes), metadata };
    } catch (error) {
      if (ctx.signal.aborted) return { output: `Interrupted by the user while fetching ${url}.`, isError: true };
      if (timeout.aborted) {
        return {
          output: `Timed out after ${timeoutMs / 1000} s fetching ${url}: the server did not answer in time. Try again later or use another source.`,
          isError: true,
        };
      }
      return { output: `Could not fetch ${url}: ${errorText(error)}. Check the URL; if it is right, the site may be down.`, isError: true };
    }
  },
});

/** The URL if it can be fetched, else the reason for the model. */
function httpUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return `"${raw}" is not a valid URL. Give a full URL such as https://example.com/page.`;
  }
  if (url.protocol === "http:" || url.protocol === "https:") return url;
  return `Only http and https URLs can be fetched, not ${url.protocol}. To read a local file use the read tool.`;
}

type Fetched = { response: Response; finalUrl: string };

async function follow(start: URL, signal: AbortSignal): Promise<Fetched | string> {
  let url = start;
  const pinned = pinnedAddresses(bareHost(start.hostname));
  if (pinned?.length === 0) return `Could not fetch ${start.href}: ${start.hostname} did not resolve to an address. Check the name.`;
  for (let hops = 0; ; hops++) {
    const response = await fetch(...connectTo(url, pinned?.[0], signal));
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || !location) return { response, finalUrl: url.href };
    await response.body?.cancel();
    if (hops === MAX_REDIRECTS) {
      return `${start.href} redirected more than ${MAX_REDIRECTS} times (last to ${new URL(location, url).href}); giving up. Fetch the last URL directly if it looks right.`;
    }
    const next = httpUrl(new URL(location, url).href);
    if (typeof next === "string") return `${url.href} redirected to ${location}. ${next}`;
    // Another origin was not part of what the user allowed: the model must fetch it by name, which asks again.
    if (next.origin !== start.origin) return `${url.href} redirected to another site, ${next.href}; fetch that URL directly if it is what you need.`;
    url = next;
  }
}

function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "");
}

/** The fetch of `url` at `address` (the one the check judged): the name stays in Host and in TLS. */
function connectTo(url: URL, address: string | undefined, signal: AbortSignal): [URL, RequestInit & { tls?: object }] {
  const init = { signal, redirect: "manual" as const, headers: HEADERS };
  const name = bareHost(url.hostname);
  if (!address || address === name) return [url, init];
  const target = new URL(url.href);
  target.hostname = address.includes(":") ? `[${address}]` : address;
  const tls = url.protocol === "https:" ? { tls: { serverName: name, checkServerIdentity: (_host: string, cert: Parameters<typeof checkServerIdentity>[1]) => checkServerIdentity(name, cert) } } : {};
  return [target, { ...init, headers: { ...HEADERS, host: url.host }, ...tls }];
}

async function failure(header: string, response: Response, type: string, finalUrl: string): Promise<string> {
  const reason = `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`;
  const advice =
    response.status === 429 || response.status >= 500
      ? "The error may be temporary: try again later or use another source."
      : "Check the URL; do not fetch it again unchanged.";
  const body = await readCapped(response.body, MAX_ERROR_BODY_BYTES).catch(() => undefined);
  const text = body ? decode(body.bytes, response.headers.get("content-type")) : "";
  const readable = kindOf(type) === "html" ? htmlToText(text, finalUrl) : kindOf(type) === "binary" ? "" : text;
  const start = readable.trim().slice(0, ERROR_BODY_CHARS);
  return [header, `${reason} ${advice}`, ...(start ? [`Start of the body:\n${start}`] : [])].join("\n");
}

function binaryMessage(header: string, type: string): string {
  return `${header}\nThis is ${type ? `${type} content` : "binary content"}, which webfetch cannot show as text. Look for an HTML or text version of the page instead.`;
}

async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (!body) return { bytes: new Uint8Array(), cut: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), cut: false };
    if (size + value.byteLength > limit) {
      chunks.push(value.subarray(0, limit - size));
      await reader.cancel();
      return { bytes: Buffer.concat(chunks), cut: true };
    }
    chunks.push(value);
    size += value.byteLength;
  }
}

type Kind = "html" | "text" | "binary" | "sniff";

const TEXT_TYPES = /^(text\/.+|application\/(json|xml|javascript|ecmascript|x-javascript|yaml|x-yaml|toml|x-ndjson|sql|graphql)|.+\+(json|xml))$/;

function kindOf(type: string): Kind {
  if (!type) return "sniff";
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  return TEXT_TYPES.test(type) ? "text" : "binary";
}

/** A body sent without a content type: HTML if it says so, text unless it holds NUL bytes. */
function sniffed(text: string, url: string): string | undefined {
  if (text.slice(0, 1024).includes("\u0000")) return undefined;
  return /^\s*<(!doctype html|html)[\s>]/i.test(text) ? htmlToText(text, url) : text;
}

function mimeType(header: string | null): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

function decode(bytes: Uint8Array, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder((charset ?? "utf-8") as ConstructorParameters<typeof TextDecoder>[0]).decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes); // an unknown charset: UTF-8 is the best guess
  }
}

function render(header: string, text: string, maxChars: number, notes: string[]): string {
  const body = text.trim() || "(the page has no text)";
  const all = [...notes];
  if (body.length > maxChars) {
    all.push(`[Showing the first ${maxChars} of ${body.length} characters. Call again with a larger max_chars to read more.]`);
  }
  return [header, "", body.slice(0, maxChars), ...(all.length ? ["", ...all] : [])].join("\n");
}

function timeoutFromEnv(): number {
  const value = Number(process.env[TIMEOUT_ENV]);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
