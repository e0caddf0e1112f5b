// Finds where to log in to a remote MCP server, as the 2025-11-25 authorization spec says: the
// server's 401 names its protected resource metadata (RFC 9728), which names the authorization
// server, whose metadata (RFC 8414 or OpenID discovery) gives the endpoints. Checked on the way:
// the metadata's `resource` is this server, its `issuer` is the authorization server it was
// fetched from, S256 PKCE is offered, and every endpoint is https (or http on this machine).
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type { AuthorizationServerMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { checkResourceAllowed, resourceUrlFromServerUrl } from "@modelcontextprotocol/sdk/shared/auth-utils.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { RemoteEntry } from "./config.ts";
import { messageOf } from "./message.ts";
import { answerText } from "./oauth-answers.ts";

export type Discovery = {
  issuer: string;
  metadata: AuthorizationServerMetadata;
  /** the RFC 8707 resource indicator: the metadata's, or the server's canonical URL */
  resource: string;
  /** what the 401 or the metadata say to ask for */
  scope?: string;
  /** what was odd on the way but did not stop the login, one line each */
  notes: string[];
};

export class LoginError extends Error {}

export async function discover(entry: RemoteEntry, fetchFn: FetchLike = fetch): Promise<Discovery | "open"> {
  secureUrl(entry.url, "the server's url");
  const answer = await probe(entry, fetchFn);
  if (answer.status !== 401) {
    await answer.body?.cancel();
    if (answer.ok) return "open";
    throw new LoginError(`${entry.url} answered ${answer.status} ${answer.statusText}, not 401: it does not ask for an OAuth login there`);
  }
  const challenge = extractWWWAuthenticateParams(answer);
  await answer.body?.cancel();
  const notes: string[] = [];
  const resourceMetadata = await discoverOAuthProtectedResourceMetadata(entry.url, { resourceMetadataUrl: challenge.resourceMetadataUrl }, fetchFn).catch((error: unknown) => {
    // None published is normal for a server from before RFC 9728; one that cannot be read is told.
    if (!/does not implement OAuth 2.0 Protected Resource Metadata/.test(messageOf(error))) {
      const where = challenge.resourceMetadataUrl?.href ?? "its /.well-known/oauth-protected-resource";
      notes.push(`the server's protected resource metadata (${where}) could not be read (${answerText(error)}); taking ${new URL(entry.url).origin} as its own authorization server`);
    }
    return undefined;
  });
  if (resourceMetadata && !checkResourceAllowed({ requestedResource: resourceUrlFromServerUrl(entry.url), configuredResource: resourceMetadata.resource })) {
    throw new LoginError(`the server's protected resource metadata is for ${resourceMetadata.resource}, not ${entry.url}: refusing to log in`);
  }
  // A server from before RFC 9728 is its own authorization server.
  const issuer = resourceMetadata?.authorization_servers?.[0] ?? new URL(entry.url).origin;
  secureUrl(issuer, "the authorization server");
  const metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn }).catch((error: unknown) => {
    throw new LoginError(`the authorization server's metadata (${issuer}) could not be read: ${answerText(error)}`);
  });
  if (!metadata) throw new LoginError(`the authorization server ${issuer} publishes no metadata (/.well-known/oauth-authorization-server or openid-configuration)`);
  if (trimSlash(metadata.issuer) !== trimSlash(issuer)) {
    throw new LoginError(`the authorization server's metadata names issuer ${metadata.issuer}, not ${issuer} where it was found: refusing to log in (RFC 8414 section 3.3)`);
  }
  if (!metadata.code_challenge_methods_supported?.includes("S256")) {
    throw new LoginError(`the authorization server ${issuer} does not offer S256 PKCE (code_challenge_methods_supported): refusing to log in`);
  }
  secureUrl(metadata.authorization_endpoint, "its authorization endpoint");
  secureUrl(metadata.token_endpoint, "its token endpoint");
  if (metadata.registration_endpoint) secureUrl(metadata.registration_endpoint, "its registration endpoint");
  const scope = challenge.scope ?? resourceMetadata?.scopes_supported?.join(" ");
  // RFC 8707 (and the MCP spec): the resource is always named, from the metadata or the server's own URL.
  const resource = resourceMetadata?.resource ?? resourceUrlFromServerUrl(entry.url).href;
  return { issuer, metadata, resource, ...(scope ? { scope } : {}), notes };
}

/** What a client first sends: an initialize POST (streamable HTTP) or the event stream GET (SSE). */
function probe(entry: RemoteEntry, fetchFn: FetchLike): Promise<Response> {
  const headers = { ...entry.headers, accept: entry.type === "sse" ? "text/event-stream" : "application/json, text/event-stream" };
  if (entry.type === "sse") return fetchFn(entry.url, { headers, redirect: "manual" });
  const body = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "rein", version: "login" } } });
  return fetchFn(entry.url, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body, redirect: "manual" });
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Tokens and codes travel only over https, or plain http to this machine. */
function secureUrl(url: string, what: string): void {
  const parsed = URL.parse(url);
  if (parsed?.protocol === "https:" || (parsed?.protocol === "http:" && LOOPBACK.has(parsed.hostname))) return;
  throw new LoginError(`${what} (${url}) is not https: refusing to send a login over it`);
}

function trimSlash(url: string): string {
  return url.replace(/\/$/, "");
}
