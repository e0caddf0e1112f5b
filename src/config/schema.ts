import * as v from "valibot";

// Every message ends with what was found, so a formatted issue reads
// `"maxTurns": expected an integer >= 1, got "ten"`.

import { PERMISSION_MODES, type PermissionMode } from "../permission/modes.ts";

export { PERMISSION_MODES, type PermissionMode };

export const ModelSchema = v.pipe(
  v.string(expected("expected a model name")),
  v.minLength(1, expected("expected a model name")),
);

export const ApiKeySchema = v.pipe(
  v.string(expected("expected an API key string", { secret: true })),
  v.minLength(1, expected("expected an API key string", { secret: true })),
);

export const BaseUrlSchema = v.pipe(
  v.string(expected("expected an http(s) URL")),
  v.check(isHttpUrl, expected("expected an http(s) URL")),
);

export const MaxTurnsSchema = positiveInteger();
export const MaxTokensSchema = positiveInteger();
export const MaxCostSchema = v.pipe(
  v.number(expected("expected a positive number of US dollars")),
  v.finite(expected("expected a positive number of US dollars")),
  v.gtValue(0, expected("expected a positive number of US dollars")),
);

export const PermissionModeSchema = v.picklist(PERMISSION_MODES, expected(`expected one of ${PERMISSION_MODES.join(", ")}`));

export const SANDBOX_SETTINGS = ["on", "off", "auto"] as const;
export type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];
export const SandboxSchema = v.picklist(SANDBOX_SETTINGS, expected(`expected one of ${SANDBOX_SETTINGS.join(", ")}`));

// A token travels in an Authorization header: visible ASCII only, no spaces.
const TOKEN_MESSAGE = "expected a token of at least 16 visible characters (letters, digits, punctuation; no spaces)";
export const ServerTokenSchema = v.pipe(
  v.string(expected(TOKEN_MESSAGE, { secret: true })),
  v.regex(/^[\x21-\x7e]{16,}$/, expected(TOKEN_MESSAGE, { secret: true })),
);

// The schema of a whole config file is in file-schema.ts, which loads with the first config file
// read: building its ~180 valibot parts at every start is enough for JavaScriptCore to compile
// valibot's constructors with its optimizing JIT, a cost a run with no config file need not pay.
export const PROVIDER_APIS = ["openai-chat", "anthropic"] as const;
export const WEB_SEARCH_FORMATS = ["searxng"] as const;
export type { ConfigFile, ProviderEntry, WebSearchConfig } from "./file-schema.ts";

export function positiveInteger() {
  const message = expected("expected an integer >= 1");
  return v.pipe(v.number(message), v.integer(message), v.minValue(1, message));
}

export function expected(text: string, opts: { secret?: boolean } = {}) {
  return (issue: v.BaseIssue<unknown>) => `${text}, got ${describe(issue.input, opts.secret)}`;
}

/** A short rendering of a bad value; secrets are never echoed back. */
export function describe(value: unknown, secret = false): string {
  if (typeof value === "string") {
    if (secret) return `a string of ${value.length} characters`;
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  }
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

export function isHttpUrl(text: string): boolean {
  const url = URL.parse(text);
  return url !== null && (url.protocol === "http:" || url.protocol === "https:");
}
