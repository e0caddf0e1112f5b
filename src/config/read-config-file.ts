import * as v from "valibot";
import { ConfigError } from "./config-error.ts";
import { locateJsonError } from "./json-error.ts";
import type { ConfigFile } from "./file-schema.ts";
import { NotRegularFileError } from "../sdk/own-file.ts";
import { readOptionalText } from "./optional-json.ts";

/** Keys only the user config may set: a repository could otherwise send the user's key to its own host. */
const USER_ONLY_KEYS = ["apiKey", "baseURL", "server"] as const;
const PROVIDER_USER_ONLY_KEYS = ["baseURL", "apiKey", "headers", "api", "local"] as const;

export type ConfigFileKind = { kind: "user" } | { kind: "project"; userConfig: string };

/** Reads and validates one config file. Undefined when the file does not exist; ConfigError when it is wrong. */
export function readConfigFile(file: string, kind: ConfigFileKind): ConfigFile | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  const json = parseJson(file, text);
  if (kind.kind === "project") rejectUserOnlyKeys(file, json, kind.userConfig);
  const plain = onlyEnabledPlugins(json);
  if (plain) return plain;
  const result = v.safeParse(fileSchema().ConfigFileSchema, json, { abortPipeEarly: true });
  if (result.success) return result.output;
  throw issuesError(file, result.issues);
}

/**
 * A file that holds only `enabledPlugins` of true and false (what `rein plugin install` writes into
 * a config that had nothing), checked by hand: the whole file's schema is about 150 valibot schemas,
 * whose building is most of a start's cost of reading it (and pushes valibot's constructors into
 * JavaScriptCore's optimizing JIT). The same value the schema gives; anything else goes to the
 * schema, which says what is wrong.
 */
function onlyEnabledPlugins(json: unknown): ConfigFile | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const keys = Object.keys(json);
  if (keys.length !== 1 || keys[0] !== "enabledPlugins") return undefined;
  const enabled = (json as { enabledPlugins: unknown }).enabledPlugins;
  if (typeof enabled !== "object" || enabled === null || Array.isArray(enabled)) return undefined;
  const copy: Record<string, boolean> = {};
  for (const [id, on] of Object.entries(enabled)) {
    if (typeof on !== "boolean" || id === "__proto__" || id === "prototype" || id === "constructor") return undefined;
    copy[id] = on;
  }
  return { enabledPlugins: copy };
}

/** The whole file's schema, built with the first config file that exists (file-schema.ts; synchronous, as this read is). */
const fileSchema = () => require("./file-schema.ts") as typeof import("./file-schema.ts");

/** A missing file is nothing (ENOTDIR too: `.rein` is a file, so there is no `.rein/config.json`); an unreadable one an error. */
function readText(file: string): string | undefined {
  const read = readOptionalText(file);
  if (!read || "text" in read) return read?.text;
  const { error } = read;
  if (error instanceof NotRegularFileError) throw new ConfigError(`config error in ${file}: ${read.problem}; replace it with a JSON file`, { file });
  const code = (error as NodeJS.ErrnoException).code;
  throw new ConfigError(`config error in ${file}: cannot read the file (${code ?? String(error)})`, { file });
}

function parseJson(file: string, raw: string): unknown {
  const text = raw.replace(/^\uFEFF/, "");
  if (text.trim() === "") throw new ConfigError(`config error in ${file}: empty file; delete it or write {}`, { file });
  try {
    return JSON.parse(text);
  } catch (error) {
    const at = locateJsonError(text);
    const detail = at ? `line ${at.line}, column ${at.column}: invalid JSON (${at.problem})` : `invalid JSON (${(error as Error).message})`;
    throw new ConfigError(`config error in ${file}: ${detail}`, { file });
  }
}

function rejectUserOnlyKeys(file: string, json: unknown, userConfig: string): void {
  if (typeof json !== "object" || json === null) return;
  const key = USER_ONLY_KEYS.find((name) => Object.hasOwn(json, name)) ?? userOnlyProviderKey(json);
  if (key === undefined) return;
  throw new ConfigError(
    `config error in ${file}: "${key}" is not allowed in a project config (a repository could send your API key to another host); move it to your user config ${userConfig}`,
    { file, key },
  );
}

/** A provider's endpoint, key and headers are the user's to set: `providers.NAME.baseURL`. */
function userOnlyProviderKey(json: object): string | undefined {
  const providers = (json as { providers?: unknown }).providers;
  if (typeof providers !== "object" || providers === null) return undefined;
  for (const [name, entry] of Object.entries(providers)) {
    if (typeof entry !== "object" || entry === null) continue;
    const key = PROVIDER_USER_ONLY_KEYS.find((k) => Object.hasOwn(entry, k));
    if (key) return `providers.${name}.${key}`;
  }
  return undefined;
}

function issuesError(file: string, issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]): ConfigError {
  const shown = issues.slice(0, 3).map(formatIssue);
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : "";
  const key = issueKey(issues[0]);
  return new ConfigError(`config error in ${file}: ${shown.join("; ")}${more}`, { file, key: key || undefined });
}

/** `"permissions.allow[1]": expected ...`; an unknown key is reported against the object that holds it. */
function formatIssue(issue: v.BaseIssue<unknown>): string {
  const unknownKey = issue.path?.at(-1)?.origin === "key";
  const key = unknownKey ? pathText(issue.path?.slice(0, -1)) : issueKey(issue);
  return key ? `"${key}": ${issue.message}` : issue.message;
}

function issueKey(issue: v.BaseIssue<unknown>): string {
  return pathText(issue.path);
}

function pathText(path: readonly v.IssuePathItem[] | undefined): string {
  let text = "";
  for (const item of path ?? []) {
    const key = item.key;
    if (typeof key === "number") text += `[${key}]`;
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text;
}
