// The schema of one whole config file (user or project), loaded with the first config file read
// (read-config-file.ts): a run with none never builds it. The field schemas the environment and
// the flags share are in schema.ts.
import * as v from "valibot";
import { HooksSchema } from "./hooks-schema.ts";
import { readRule, RULE_EXAMPLE, type RuleAction } from "./rule.ts";
import {
  ApiKeySchema,
  BaseUrlSchema,
  describe,
  expected,
  isHttpUrl,
  MaxCostSchema,
  MaxTokensSchema,
  MaxTurnsSchema,
  ModelSchema,
  PermissionModeSchema,
  positiveInteger,
  PROVIDER_APIS,
  SandboxSchema,
  ServerTokenSchema,
  WEB_SEARCH_FORMATS,
} from "./schema.ts";

const PermissionsSchema = strict({
  allow: v.optional(rules("allow")),
  ask: v.optional(rules("ask")),
  deny: v.optional(rules("deny")),
});

const ServerSchema = strict({
  token: v.optional(ServerTokenSchema),
  origins: v.optional(
    v.array(
      v.pipe(v.string(expected("expected an origin like http://localhost:5173")), v.check(isOrigin, expected("expected an origin like http://localhost:5173"))),
      expected("expected a list of origins"),
    ),
  ),
  hosts: v.optional(
    v.array(
      v.pipe(v.string(expected("expected a host name like rein.lan")), v.regex(/^[a-z0-9.-]+$/i, expected("expected a host name like rein.lan"))),
      expected("expected a list of host names"),
    ),
  ),
});

const EnvSchema = strict({
  passthrough: v.optional(
    v.array(
      v.pipe(
        v.string(expected("expected an environment variable name like GITHUB_TOKEN")),
        v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, expected("expected an environment variable name like GITHUB_TOKEN")),
      ),
      expected("expected a list of environment variable names"),
    ),
  ),
});

const nonNegative = () =>
  v.pipe(v.number(expected("expected a price in USD per million tokens")), v.finite(expected("expected a price in USD per million tokens")), v.minValue(0, expected("expected a price in USD per million tokens")));

const PricesSchema = strict({ input: nonNegative(), output: nonNegative(), cacheRead: v.optional(nonNegative()), cacheWrite: v.optional(nonNegative()) });

const flag = () => v.optional(v.boolean(expected("expected true or false")));

const CompatSchema = strict({
  maxTokensField: v.optional(v.picklist(["max_tokens", "max_completion_tokens"], expected("expected max_tokens or max_completion_tokens"))),
  supportsUsageInStreaming: flag(),
  requiresToolResultName: flag(),
  requiresAssistantAfterToolResult: flag(),
});

const ModelEntrySchema = strict({
  window: v.optional(positiveInteger()),
  maxOutput: v.optional(positiveInteger()),
  prices: v.optional(PricesSchema),
  compat: v.optional(CompatSchema),
  tools: flag(),
  images: flag(),
  caching: flag(),
  reasoning: flag(),
});

const ProviderEntrySchema = strict({
  api: v.optional(v.picklist(PROVIDER_APIS, expected(`expected one of ${PROVIDER_APIS.join(", ")}`))),
  baseURL: v.optional(BaseUrlSchema),
  /** "env:VAR" reads the key from that variable; anything else is the key itself */
  apiKey: v.optional(ApiKeySchema),
  headers: v.optional(v.record(v.string(), v.string(expected("expected a header value string")), expected("expected an object of header names and values"))),
  /** a local server: no key needed */
  local: flag(),
  models: v.optional(v.record(v.pipe(v.string(), v.minLength(1)), ModelEntrySchema, expected("expected an object of model ids"))),
  compat: v.optional(CompatSchema),
});

const ProvidersSchema = v.record(
  v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_.-]*$/, expected("expected a provider name of lower-case letters, digits, . _ -"))),
  ProviderEntrySchema,
  expected("expected an object of providers"),
);

export type ProviderEntry = v.InferOutput<typeof ProviderEntrySchema>;

const domains = () => v.optional(v.array(v.pipe(v.string(expected("expected a domain like example.com")), v.regex(/^[a-z0-9.*-]+$/i, expected("expected a domain like example.com"))), expected("expected a list of domains")));

const WebSearchSchema = v.pipe(
  strict({
    /** Anthropic's server-side web search tool (with the Anthropic provider) instead of a search API of your own */
    server: flag(),
    url: v.optional(BaseUrlSchema),
    format: v.optional(v.picklist(WEB_SEARCH_FORMATS, expected(`expected one of ${WEB_SEARCH_FORMATS.join(", ")}`))),
    /** the most results one search returns (default 10); with `server`, the most searches a reply makes (default 5) */
    maxResults: v.optional(positiveInteger()),
    /** with `server`: the only domains searched, or the ones never searched (not both) */
    allowedDomains: domains(),
    blockedDomains: domains(),
  }),
  v.check((w) => Boolean((w as { server?: boolean }).server || (w as { url?: string }).url), 'webSearch needs "url" (a SearXNG JSON API) or "server": true (Anthropic\'s own search)'),
  v.check((w) => !((w as { allowedDomains?: unknown }).allowedDomains && (w as { blockedDomains?: unknown }).blockedDomains), "webSearch takes allowedDomains or blockedDomains, not both"),
);

export type WebSearchConfig = v.InferOutput<typeof WebSearchSchema>;

/** One config file, user or project. Rule strings come out parsed. */
export const ConfigFileSchema = strict({
  model: v.optional(ModelSchema),
  apiKey: v.optional(ApiKeySchema),
  baseURL: v.optional(BaseUrlSchema),
  maxTurns: v.optional(MaxTurnsSchema),
  maxTokens: v.optional(MaxTokensSchema),
  maxCost: v.optional(MaxCostSchema),
  /** how many background workers (task run_in_background) run at once; the others wait queued (default 4) */
  maxWorkers: v.optional(positiveInteger()),
  /** where background workers run: in rein's process (the default) or each as a rein process in a tmux pane (Claude Code's key) */
  teammateMode: v.optional(v.picklist(["in-process", "tmux"], 'teammateMode is "in-process" or "tmux"')),
  permissionMode: v.optional(PermissionModeSchema),
  permissions: v.optional(PermissionsSchema),
  /** the agent sessions run as (a built-in one or an agent file's name) */
  agent: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, "agent must name an agent (build, plan or an agent file's name)"))),
  server: v.optional(ServerSchema),
  sandbox: v.optional(SandboxSchema),
  /** env.passthrough: credential-looking variables that still reach the processes tools start */
  env: v.optional(EnvSchema),
  providers: v.optional(ProvidersSchema),
  /** MCP servers in Claude Code's entry format; each entry is checked when its server starts (src/mcp/config.ts) */
  mcpServers: v.optional(v.record(v.string(), v.unknown(), expected("expected an object of MCP servers"))),
  /** Claude Code's shape: event -> matcher groups -> handlers */
  hooks: v.optional(HooksSchema),
  /** installed plugins on (true) or off (false) by id, Claude Code's `enabledPlugins`; a project's load only with trust */
  enabledPlugins: v.optional(v.record(v.string(), v.boolean(expected("expected true or false")), expected('expected an object like {"name@marketplace": true}'))),
  /** language servers in Claude Code's `.lsp.json` shape; each entry is checked when the session starts (src/lsp/config.ts) */
  lsp: v.optional(v.record(v.string(), v.unknown(), expected("expected an object of language servers"))),
  /** where the websearch tool searches: a SearXNG-style JSON API (`GET URL?q=QUERY&format=json`) */
  webSearch: v.optional(WebSearchSchema),
  /** memory.auto: at a session's end one model call proposes durable facts to remember (src/memory/auto.ts) */
  memory: v.optional(strict({ auto: flag() })),
});

export type ConfigFile = v.InferOutput<typeof ConfigFileSchema>;

/** A strict object (valibot's would accept an array) whose unknown-key message lists the keys it knows. */
function strict<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  const known = Object.keys(entries).join(", ");
  return v.pipe(
    v.unknown(),
    v.check((input) => typeof input === "object" && input !== null && !Array.isArray(input), expected("expected an object")),
    v.strictObject(entries, (issue) => `unknown key ${JSON.stringify(issue.input)} (known keys: ${known})`),
  );
}

function rules(action: RuleAction) {
  const message = `expected a rule like ${RULE_EXAMPLE}`;
  const rule = v.pipe(
    v.string(expected(message)),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const read = readRule(dataset.value, action);
      if ("rule" in read) return read.rule;
      addIssue({ message: `${message}, got ${describe(dataset.value)} (${read.error})` });
      return NEVER;
    }),
  );
  return v.array(rule, expected("expected a list of rules"));
}

function isOrigin(text: string): boolean {
  return isHttpUrl(text) && URL.parse(text)?.origin === text;
}
