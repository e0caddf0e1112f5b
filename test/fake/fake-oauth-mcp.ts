// An OAuth-protected MCP server on 127.0.0.1 for the login tests: protected resource metadata
// (RFC 9728) named by the 401, authorization server metadata (RFC 8414), client registration
// (RFC 7591), an authorize endpoint that approves at once (it redirects to the client's loopback
// callback, so a test follows the printed URL with fetch), a token endpoint with PKCE checks and
// rotating refresh tokens, and a streamable HTTP MCP endpoint (the SDK's server side) that needs
// a bearer token. It records every request, so tests can see which headers went where.
import { createHash, randomBytes } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export type FakeOAuthOptions = {
  /** the issuer the metadata names (default: its own origin); another value makes the metadata lie */
  issuer?: (origin: string) => string;
  /** seconds an access token lives (default 3600) */
  expiresIn?: number;
  /** the resource its protected resource metadata names (default: its MCP endpoint) */
  resource?: (origin: string) => string;
  /** the authorization server its protected resource metadata names (default: its own origin) */
  authorizationServer?: (origin: string) => string;
  /** leave out registration_endpoint (clients must be configured) */
  noRegistration?: boolean;
  /** what registration answers, from the fields a client would get (default: all of them) */
  registration?: (answer: Record<string, unknown>) => Record<string, unknown>;
  /** the protected resource metadata's body instead of its JSON (sent as text/html, status 200) */
  resourceMetadataBody?: string;
  /** the authorization server's metadata never answers */
  hangMetadata?: boolean;
};

export type SeenRequest = { method: string; path: string; authorization: string | null; form?: Record<string, string> };

export type FakeOAuthMcp = {
  origin: string;
  /** the MCP endpoint */
  url: string;
  requests: SeenRequest[];
  /** grant_type of each token request, in order */
  grants: string[];
  clients: Map<string, { redirect_uris: string[] }>;
  /** every access token given so far stops working (the next MCP request gets a 401) */
  revokeAccessTokens: () => void;
  /** every refresh token stops working too */
  revokeRefreshTokens: () => void;
  stop: () => Promise<void>;
} & AsyncDisposable;

export function startFakeOAuthMcp(opts: FakeOAuthOptions = {}): FakeOAuthMcp {
  const requests: SeenRequest[] = [];
  const grants: string[] = [];
  const clients = new Map<string, { redirect_uris: string[] }>();
  const codes = new Map<string, { client_id: string; redirect_uri: string; challenge: string; resource: string | null }>();
  const access = new Map<string, { expires: number; client_id: string }>();
  const refresh = new Map<string, string>();
  const token = () => randomBytes(16).toString("hex");
  let origin = "";

  const issue = (client_id: string) => {
    const at = `at-${token()}`;
    const rt = `rt-${token()}`;
    const expiresIn = opts.expiresIn ?? 3600;
    access.set(at, { expires: Date.now() + expiresIn * 1000, client_id });
    refresh.set(rt, client_id);
    return Response.json({ access_token: at, token_type: "Bearer", expires_in: expiresIn, refresh_token: rt, scope: "mcp" });
  };
  const oauthError = (error: string, status = 400) => Response.json({ error, error_description: `fake: ${error}` }, { status });

  const routes: Record<string, (req: Request, url: URL, form: Record<string, string>) => Response | Promise<Response>> = {
    "GET /.well-known/oauth-protected-resource/mcp": () =>
      opts.resourceMetadataBody !== undefined ? new Response(opts.resourceMetadataBody, { headers: { "content-type": "text/html" } }) : Response.json({ resource: opts.resource?.(origin) ?? `${origin}/mcp`, authorization_servers: [opts.authorizationServer?.(origin) ?? origin], scopes_supported: ["mcp"] }),
    "GET /.well-known/oauth-authorization-server": () =>
      opts.hangMetadata ? new Promise<Response>(() => {}) : Response.json({
        issuer: opts.issuer?.(origin) ?? origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        ...(opts.noRegistration ? {} : { registration_endpoint: `${origin}/register` }),
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      }),
    "POST /register": async (req) => {
      const body = (await req.json()) as { redirect_uris?: string[] };
      const client_id = `client-${token()}`;
      clients.set(client_id, { redirect_uris: body.redirect_uris ?? [] });
      const answer = { ...body, client_id, client_id_issued_at: Math.floor(Date.now() / 1000) };
      return Response.json(opts.registration?.(answer) ?? answer, { status: 201 });
    },
    "GET /authorize": (_req, url) => {
      const q = url.searchParams;
      const client = clients.get(q.get("client_id") ?? "");
      const redirect = q.get("redirect_uri") ?? "";
      if (!client || !client.redirect_uris.includes(redirect)) return oauthError("invalid_client");
      if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) return oauthError("invalid_request");
      const code = `code-${token()}`;
      codes.set(code, { client_id: q.get("client_id")!, redirect_uri: redirect, challenge: q.get("code_challenge")!, resource: q.get("resource") });
      const back = new URL(redirect);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      return Response.redirect(back.href, 302);
    },
    "POST /token": (_req, _url, form) => {
      grants.push(form.grant_type ?? "");
      if (form.grant_type === "refresh_token") {
        const client_id = refresh.get(form.refresh_token ?? "");
        if (!client_id || client_id !== form.client_id) return oauthError("invalid_grant");
        refresh.delete(form.refresh_token!);
        return issue(client_id);
      }
      const grant = codes.get(form.code ?? "");
      codes.delete(form.code ?? "");
      if (!grant || grant.client_id !== form.client_id || grant.redirect_uri !== form.redirect_uri) return oauthError("invalid_grant");
      const challenge = createHash("sha256").update(form.code_verifier ?? "").digest("base64url");
      if (challenge !== grant.challenge) return oauthError("invalid_grant");
      if (grant.resource !== `${origin}/mcp` || form.resource !== `${origin}/mcp`) return oauthError("invalid_target");
      return issue(grant.client_id);
    },
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      const url = new URL(req.url);
      const form = req.method === "POST" && url.pathname === "/token" ? Object.fromEntries(new URLSearchParams(await req.text())) : undefined;
      requests.push({ method: req.method, path: url.pathname, authorization: req.headers.get("authorization"), ...(form ? { form } : {}) });
      if (url.pathname === "/mcp") return mcp(req);
      const route = routes[`${req.method} ${url.pathname}`];
      return route ? route(req, url, form ?? {}) : new Response("not found", { status: 404 });
    },
  });
  origin = `http://127.0.0.1:${server.port}`;

  const mcp = async (req: Request): Promise<Response> => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
    const grant = bearer ? access.get(bearer) : undefined;
    if (!grant || grant.expires <= Date.now()) {
      return new Response("unauthorized", {
        status: 401,
        headers: { "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp"` },
      });
    }
    // Stateless: no event stream to GET (the streamable HTTP client takes the 405 as "none").
    if (req.method === "GET") return new Response("no event stream here", { status: 405 });
    const mcpServer = new Server({ name: "fake-oauth-mcp", version: "1.0.0" }, { capabilities: { tools: {} } });
    mcpServer.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: "whoami", description: "Says which OAuth client the call came from.", inputSchema: { type: "object", properties: {} } }],
    }));
    mcpServer.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: "text", text: `you are ${grant.client_id}` }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await mcpServer.connect(transport);
    return transport.handleRequest(req);
  };

  const stop = async () => void (await server.stop(true));
  return {
    origin,
    url: `${origin}/mcp`,
    requests,
    grants,
    clients,
    revokeAccessTokens: () => access.clear(),
    revokeRefreshTokens: () => refresh.clear(),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
