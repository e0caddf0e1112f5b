// A remote server's saved login as `rein mcp get` shows it: whether there is one, where it was
// made and when its token expires. Never the tokens themselves.
import { readLogin, type LoginKey } from "./oauth-store.ts";

export type LoginState = {
  logged_in: boolean;
  /** the authorization server the login was made with */
  issuer?: string;
  /** when the access token expires (ISO 8601), if the server said */
  expires_at?: string;
  expired: boolean;
  /** whether a refresh token can renew it without a new login */
  renewable: boolean;
};

export function loginState(tokenFile: string, server: LoginKey, now = Date.now()): LoginState {
  const login = readLogin(tokenFile, server);
  if (!login) return { logged_in: false, expired: false, renewable: false };
  const expiresAt = login.tokens.expires_at;
  return {
    logged_in: true,
    issuer: login.issuer,
    ...(expiresAt !== undefined ? { expires_at: new Date(expiresAt).toISOString() } : {}),
    expired: expiresAt !== undefined && expiresAt <= now,
    renewable: login.tokens.refresh_token !== undefined,
  };
}

/** `login: ...`, one line. */
export function loginLine(state: LoginState, name: string, now = Date.now()): string {
  if (!state.logged_in) return `login: none saved (rein mcp login ${name} logs in, if the server asks for one)`;
  const at = `logged in at ${state.issuer}`;
  if (!state.expires_at) return `login: ${at}; the token has no expiry`;
  const when = state.expires_at.replace(/:\d\d\.\d+Z$/, "Z").replace("T", " ");
  if (!state.expired) return `login: ${at}; the token expires ${when} (${inTime(Date.parse(state.expires_at) - now)})${state.renewable ? ", then is renewed with the refresh token" : ""}`;
  if (state.renewable) return `login: ${at}; the token expired ${when} and is renewed with the refresh token at the next use`;
  return `login: expired ${when} (rein mcp login ${name} to log in again)`;
}

function inTime(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 120) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `in ${hours} h` : `in ${Math.round(hours / 24)} days`;
}
