// The logins of remote MCP servers, in one file of the data folder (`mcp-tokens.json`, mode 0600,
// in a folder made 0700), keyed by server name and URL: a login is used only for the URL it was
// made for, so a config that gives the same name another URL gets none of its tokens. The file's
// name puts it among rein's secrets, which no tool may read and the sandbox hides.
import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import * as v from "valibot";
import { readOwnText } from "../sdk/own-file.ts";

const Tokens = v.looseObject({
  access_token: v.string(),
  token_type: v.string(),
  refresh_token: v.optional(v.string()),
  scope: v.optional(v.string()),
  /** ms since the epoch, from the token answer's expires_in */
  expires_at: v.optional(v.number()),
});

const Login = v.object({
  name: v.string(),
  url: v.string(),
  /** the authorization server, checked against its metadata's issuer at login */
  issuer: v.string(),
  /** RFC 8707 resource indicator the tokens are bound to */
  resource: v.optional(v.string()),
  metadata: v.looseObject({ issuer: v.string(), authorization_endpoint: v.string(), token_endpoint: v.string(), response_types_supported: v.array(v.string()) }),
  client: v.looseObject({ client_id: v.string(), client_secret: v.optional(v.string()) }),
  tokens: Tokens,
});

const File = v.object({ logins: v.record(v.string(), v.unknown()) });

export type StoredLogin = v.InferOutput<typeof Login>;
export type StoredTokens = v.InferOutput<typeof Tokens>;
export type LoginKey = { name: string; url: string };

const keyOf = (server: LoginKey) => `${server.name} ${server.url}`;

/** The login saved for this server name and URL; a missing, unreadable or malformed one is none. */
export function readLogin(file: string, server: LoginKey): StoredLogin | undefined {
  const parsed = v.safeParse(Login, readAll(file)[keyOf(server)]);
  return parsed.success && parsed.output.name === server.name && parsed.output.url === server.url ? parsed.output : undefined;
}

export function saveLogin(file: string, login: StoredLogin): void {
  writeAll(file, { ...readAll(file), [keyOf(login)]: login });
}

/** Removes every login of this server name (whatever its URL was); says how many went. */
export function removeLogins(file: string, name: string): number {
  const all = readAll(file);
  const gone = Object.keys(all).filter((key) => (all[key] as { name?: unknown } | undefined)?.name === name);
  if (gone.length === 0) return 0;
  for (const key of gone) delete all[key];
  writeAll(file, all);
  return gone.length;
}

/** The token answer of a token endpoint as stored: the expiry as a time, the refresh token kept when a refresh sends none. */
export function storedTokens(answer: { access_token: string; token_type: string; refresh_token?: string; scope?: string; expires_in?: number }, previous?: StoredTokens, now = Date.now()): StoredTokens {
  return {
    access_token: answer.access_token,
    token_type: answer.token_type,
    ...(answer.refresh_token ?? previous?.refresh_token ? { refresh_token: answer.refresh_token ?? previous?.refresh_token } : {}),
    ...(answer.scope ?? previous?.scope ? { scope: answer.scope ?? previous?.scope } : {}),
    ...(typeof answer.expires_in === "number" ? { expires_at: now + answer.expires_in * 1000 } : {}),
  };
}

function readAll(file: string): Record<string, unknown> {
  try {
    const parsed = v.safeParse(File, JSON.parse(readOwnText(file)));
    return parsed.success ? { ...parsed.output.logins } : {};
  } catch {
    return {}; // no logins yet
  }
}

function writeAll(file: string, logins: Record<string, unknown>): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ logins }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
