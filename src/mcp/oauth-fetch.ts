// The fetch a remote server's transport uses in a session: it adds the saved access token to
// requests for that server's own origin only (never to any other host), refreshes the token
// before it expires or when the server answers 401, and turns a 401 it cannot fix into an error
// that tells the user to log in. Tokens stay in this process: not in the environment, not in
// errors, not in logs.
import { refreshAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import type { AuthorizationServerMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ServerEntry } from "./config.ts";
import { readLogin, saveLogin, storedTokens, type LoginKey, type StoredLogin } from "./oauth-store.ts";
import { messageOf } from "./message.ts";

/** Refresh this long before the saved expiry, so a token does not lapse in flight. */
const EARLY_MS = 30_000;

export type RemoteAuth = { fetch: FetchLike; needsLogin: () => boolean };

/** The login-aware fetch for a remote entry; none for stdio, `"oauth": false`, or an entry that sends its own Authorization header. */
export function remoteAuth(name: string, entry: ServerEntry, tokenFile: string | undefined, base: FetchLike = fetch): RemoteAuth | undefined {
  if (!("url" in entry) || !tokenFile || entry.oauth === false) return undefined;
  if (Object.keys(entry.headers ?? {}).some((h) => h.toLowerCase() === "authorization")) return undefined;
  const server: LoginKey = { name, url: entry.url };
  const origin = new URL(entry.url).origin;
  let needed = false;
  let refreshing: Promise<StoredLogin | string> | undefined;

  const refresh = (used: StoredLogin): Promise<StoredLogin | string> =>
    (refreshing ??= refreshOnce(tokenFile, server, used).finally(() => (refreshing = undefined)));

  const authFetch: FetchLike = async (url, init) => {
    if (new URL(url).origin !== origin) return base(url, init);
    let saved = readLogin(tokenFile, server);
    if (saved && expiresSoon(saved)) {
      const fresh = await refresh(saved);
      if (typeof fresh !== "string") saved = fresh;
    }
    if (!saved) return refuse(await base(url, init), "it needs a login");
    const answer = await base(url, withToken(init, saved));
    if (answer.status !== 401) return answer;
    await answer.body?.cancel();
    const fresh = await refresh(saved);
    if (typeof fresh === "string") throw loginError(`its login is no longer accepted and could not be renewed (${fresh})`);
    return refuse(await base(url, withToken(init, fresh)), "its login is no longer accepted");
  };

  const refuse = async (answer: Response, why: string): Promise<Response> => {
    if (answer.status !== 401) return answer;
    await answer.body?.cancel();
    throw loginError(why);
  };
  const loginError = (why: string) => {
    needed = true;
    return new Error(`${why}: run \`rein mcp login ${name}\` in a terminal, then try again`);
  };
  return { fetch: authFetch, needsLogin: () => needed };
}

/** New tokens from the refresh token, or why there are none. Another process may have renewed them already. */
async function refreshOnce(tokenFile: string, server: LoginKey, used: StoredLogin): Promise<StoredLogin | string> {
  const current = readLogin(tokenFile, server);
  if (!current) return "it was logged out";
  if (current.tokens.access_token !== used.tokens.access_token && !expiresSoon(current)) return current;
  const refreshToken = current.tokens.refresh_token;
  if (!refreshToken) return "the server gave no refresh token";
  try {
    const answer = await refreshAuthorization(current.issuer, {
      metadata: current.metadata as AuthorizationServerMetadata,
      clientInformation: current.client,
      refreshToken,
      ...(current.resource ? { resource: current.resource } : {}),
    });
    const renewed = { ...current, tokens: storedTokens(answer, current.tokens) };
    saveLogin(tokenFile, renewed);
    return renewed;
  } catch (error) {
    return `the authorization server said: ${messageOf(error)}`;
  }
}

function expiresSoon(login: StoredLogin): boolean {
  return login.tokens.expires_at !== undefined && login.tokens.expires_at - EARLY_MS <= Date.now();
}

function withToken(init: RequestInit | undefined, login: StoredLogin): RequestInit {
  const headers = new Headers(init?.headers);
  headers.set("authorization", `Bearer ${login.tokens.access_token}`);
  // A request carrying the token never follows a redirect by itself (the SDK follows same-origin ones).
  return { ...init, headers, redirect: "manual" };
}
