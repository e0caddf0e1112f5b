// `rein mcp login NAME`, apart from the terminal: finds the authorization server, takes the
// configured client or registers one (RFC 7591), shows the authorization URL (PKCE S256, state,
// the RFC 8707 resource), takes the code on the loopback port, exchanges it and saves the tokens
// for this server name and URL.
import { randomBytes } from "node:crypto";
import { exchangeAuthorization, registerClient, startAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { RemoteEntry } from "./config.ts";
import { expandText } from "./expand.ts";
import { listenForCode } from "./oauth-callback.ts";
import { scopeOf } from "./oauth-config.ts";
import { discover, LoginError, type Discovery } from "./oauth-discover.ts";
import { saveLogin, storedTokens, type StoredLogin } from "./oauth-store.ts";
import { answerText, boundedFetch, LOGIN_REQUEST_TIMEOUT_MS } from "./oauth-answers.ts";

export type LoginOptions = {
  name: string;
  entry: RemoteEntry;
  tokenFile: string;
  env: Readonly<Record<string, string | undefined>>;
  /** shows the user the URL to open (the login waits for the browser to come back) */
  onUrl: (url: string) => void | Promise<void>;
  timeoutMs?: number;
  /** how long each request of the login may take (the browser's return is `timeoutMs`) */
  requestTimeoutMs?: number;
  /** told what was odd on the way but did not stop the login, one line each */
  onNote?: (line: string) => void;
  fetchFn?: FetchLike;
};

const LOGIN_TIMEOUT_MS = 5 * 60_000;

/** Logs in and saves the tokens; "open" when the server asks for no login. Failures are LoginErrors. */
export async function login(opts: LoginOptions): Promise<StoredLogin | "open"> {
  const { entry } = opts;
  const fetchFn = boundedFetch(opts.fetchFn ?? fetch, opts.requestTimeoutMs ?? LOGIN_REQUEST_TIMEOUT_MS);
  if (entry.oauth === false) throw new LoginError(`its entry says "oauth": false: remove that to log in`);
  const found = await discover(entry, fetchFn).catch((error: unknown) => {
    throw error instanceof LoginError ? error : new LoginError(answerText(error));
  });
  if (found === "open") return "open";
  for (const note of found.notes) opts.onNote?.(note);
  const state = randomBytes(24).toString("base64url");
  const callback = listenForCode(state, { port: entry.oauth?.callbackPort, timeoutMs: opts.timeoutMs ?? LOGIN_TIMEOUT_MS, name: opts.name });
  try {
    const scope = scopeOf(entry.oauth) ?? found.scope;
    const client = await clientFor(opts, found, callback.redirectUri, scope, fetchFn);
    const { authorizationUrl, codeVerifier } = await startAuthorization(found.issuer, {
      metadata: found.metadata,
      clientInformation: client,
      redirectUrl: callback.redirectUri,
      state,
      ...(scope ? { scope } : {}),
      resource: new URL(found.resource),
    });
    await opts.onUrl(authorizationUrl.href);
    const code = await callback.code;
    const tokens = await exchangeAuthorization(found.issuer, {
      metadata: found.metadata,
      clientInformation: client,
      authorizationCode: code,
      codeVerifier,
      redirectUri: callback.redirectUri,
      resource: new URL(found.resource),
      fetchFn,
    }).catch((error: unknown) => {
      throw new LoginError(`the authorization server did not give tokens for the code: ${answerText(error)}`);
    });
    const saved: StoredLogin = {
      name: opts.name,
      url: entry.url,
      issuer: found.issuer,
      resource: found.resource,
      metadata: found.metadata,
      client: { ...client },
      tokens: storedTokens(tokens),
    };
    saveLogin(opts.tokenFile, saved);
    return saved;
  } finally {
    await callback.close();
  }
}

/** The configured client, or one registered now for this redirect URI (a public client: PKCE, no secret). */
async function clientFor(opts: LoginOptions, found: Discovery, redirectUri: string, scope: string | undefined, fetchFn: FetchLike): Promise<OAuthClientInformationMixed> {
  const configured = opts.entry.oauth || undefined;
  if (configured?.clientId) {
    const secret = configured.clientSecret === undefined ? undefined : expandText(configured.clientSecret, opts.env);
    if (secret && "unset" in secret) throw new LoginError(`\${${secret.unset}} in its oauth.clientSecret is not set: set ${secret.unset}`);
    return { client_id: configured.clientId, ...(secret?.value ? { client_secret: secret.value } : {}) };
  }
  if (!found.metadata.registration_endpoint) {
    throw new LoginError(`the authorization server ${found.issuer} does not register clients itself: register one there and set "oauth": { "clientId": ... } on the server's entry`);
  }
  return registerClient(found.issuer, {
    metadata: found.metadata,
    clientMetadata: {
      client_name: "rein",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    ...(scope ? { scope } : {}),
    fetchFn,
  }).catch((error: unknown) => {
    throw new LoginError(`registering rein with ${found.issuer} failed: ${answerText(error)}`);
  });
}
