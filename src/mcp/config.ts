// One MCP server entry in Claude Code's format (stdio `{command, args, env, cwd}`, `{type: "http"
// | "sse", url, headers}`) plus rein's `enabled`, `timeout` and `tools`. A bad entry never stops
// rein: it comes back as a sentence, and the server is listed as failed with it.
import * as v from "valibot";
import { expandEntry } from "./expand.ts";
import { OAuthSchema } from "./oauth-config.ts";

// The schemas are made at the first server entry read: a start with no MCP server builds none.
function build() {
  const text = (what: string) => v.string(`expected ${what} to be a string`);
  const strings = (what: string) => v.record(v.string(), text(`each ${what} value`), `expected ${what} to be an object of strings`);

  const Common = {
    enabled: v.optional(v.boolean("expected enabled to be true or false")),
    /** its answers cannot steer: they do not taint the session (docs/permissions.md) */
    trusted: v.optional(v.boolean("expected trusted to be true or false")),
    /** ms a tool call may take */
    timeout: v.optional(v.pipe(v.number("expected timeout to be a number of milliseconds"), v.integer(), v.minValue(1, "expected timeout >= 1 ms"))),
    tools: v.optional(
      v.object({
        allow: v.optional(v.array(text("each tools.allow name"), "expected tools.allow to be a list of tool names")),
        deny: v.optional(v.array(text("each tools.deny name"), "expected tools.deny to be a list of tool names")),
      }, "expected tools to be an object { allow?, deny? }"),
    ),
  };

  const StdioSchema = v.object({
    type: v.optional(v.literal("stdio")),
    command: v.pipe(text("command"), v.minLength(1, "expected command to be a program name")),
    args: v.optional(v.array(text("each argument"), "expected args to be a list of strings")),
    env: v.optional(strings("env")),
    cwd: v.optional(text("cwd")),
    /** run it under bubblewrap (true), or not even when the session's sandbox is on (false) */
    sandbox: v.optional(v.boolean("expected sandbox to be true or false")),
    ...Common,
  });

  const RemoteSchema = v.object({
    type: v.picklist(["http", "streamable-http", "sse"]),
    url: text("url"),
    headers: v.optional(strings("headers")),
    oauth: v.optional(OAuthSchema),
    ...Common,
  });
  return { stdio: StdioSchema, remote: RemoteSchema };
}
let built: ReturnType<typeof build> | undefined;
const schemas = () => (built ??= build());

export type StdioEntry = v.InferOutput<ReturnType<typeof build>["stdio"]>;
export type RemoteEntry = v.InferOutput<ReturnType<typeof build>["remote"]>;
export type ServerEntry = StdioEntry | RemoteEntry;
export type Transport = "stdio" | "http" | "sse";

/** The session's kernel sandbox as stdio servers get it: on for all of them with "on"; `masked` is what they cannot read. */
export type McpSandbox = { mode: "off" | "auto" | "on"; network: boolean; masked: () => readonly string[] };

export const TRANSPORTS = ["stdio", "http", "streamable-http", "sse"];

export function transportOf(entry: ServerEntry): Transport {
  if (!("url" in entry)) return "stdio";
  return entry.type === "sse" ? "sse" : "http";
}

/** The entry, checked and with `${VAR}` expanded, or why it cannot be used. */
export function parseEntry(raw: unknown, env: Readonly<Record<string, string | undefined>>): ServerEntry | { problem: string } {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { problem: "the entry is not an object: write { \"command\": ..., \"args\": [...] } or { \"type\": \"http\", \"url\": ... }" };
  const type = (raw as { type?: unknown }).type;
  if (type === undefined && "url" in raw) return { problem: 'the entry has a url but no type: add "type": "http" (or "sse" for an old server)' };
  if (type !== undefined && !TRANSPORTS.includes(type as string)) {
    return { problem: `unknown transport ${JSON.stringify(type)}: rein speaks ${TRANSPORTS.join(", ")}` };
  }
  const schema = type === undefined || type === "stdio" ? schemas().stdio : schemas().remote;
  const parsed = v.safeParse(schema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = v.getDotPath(issue);
    return { problem: `${path ? `${path}: ` : ""}${issue.message}` };
  }
  const entry = expandEntry(parsed.output, env);
  if ("url" in entry && !/^https?:$/.test(URL.parse(entry.url)?.protocol ?? "")) return { problem: `url: expected an http(s) URL, got ${JSON.stringify(entry.url)}` };
  return entry;
}
