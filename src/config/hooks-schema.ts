// The `hooks` value, in Claude Code's shape: event -> matcher groups -> handlers. rein's config
// files are checked strictly (an error names the key); Claude Code's files are read per group, and
// what is wrong there only costs that group (see hooks/sources.ts).
import * as v from "valibot";

export const HOOK_EVENTS = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "PreCompact",
  "PostCompact",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "TaskCreated",
  "TaskCompleted",
  "TeammateIdle",
  "WorktreeCreate",
  "WorktreeRemove",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
export const HANDLER_TYPES = ["command", "http", "prompt", "agent"] as const;

// The schemas are made at the first config that has hooks (or Claude Code's file that has some):
// a start with none builds none of them.
function build() {
  const text = (what: string) => v.pipe(v.string(got(`expected ${what}`)), v.minLength(1, got(`expected ${what}`)));
  const seconds = v.pipe(v.number(got("expected a number of seconds > 0")), v.finite(got("expected a number of seconds > 0")), v.gtValue(0, got("expected a number of seconds > 0")));
  const common = {
    timeout: v.optional(seconds),
    statusMessage: v.optional(v.string(got("expected a string"))),
    if: v.optional(v.string(got("expected a permission rule like Bash(rm *)"))),
  };

  const CommandHandler = v.strictObject(
    {
      type: v.literal("command"),
      command: text("a command line or an executable"),
      args: v.optional(v.array(v.string(got("expected a string")), got("expected a list of arguments"))),
      shell: v.optional(v.picklist(["bash", "sh"], got("expected bash or sh"))),
      async: v.optional(v.boolean(got("expected true or false"))),
      /** runs in the background like `async`, and its exit 2 wakes the model with its stderr */
      asyncRewake: v.optional(v.boolean(got("expected true or false"))),
      /** what the model reads before the hook's stderr when an asyncRewake hook exits 2 */
      rewakeMessage: v.optional(v.string(got("expected a string"))),
      ...common,
    },
    unknownKey,
  );
  const HttpHandler = v.strictObject(
    {
      type: v.literal("http"),
      url: v.pipe(text("an http(s) URL"), v.check((u) => /^https?:\/\//.test(u), got("expected an http(s) URL"))),
      headers: v.optional(v.record(v.string(), v.string(got("expected a header value string")), got("expected an object of headers"))),
      allowedEnvVars: v.optional(v.array(v.string(got("expected a variable name")), got("expected a list of variable names"))),
      ...common,
    },
    unknownKey,
  );
  const PromptHandler = v.strictObject({ type: v.literal("prompt"), prompt: text("a prompt"), model: v.optional(text("a model name")), ...common }, unknownKey);
  const AgentHandler = v.strictObject({ type: v.literal("agent"), prompt: text("a prompt"), model: v.optional(text("a model name")), ...common }, unknownKey);

  /** The keys rein reads, per handler type and for a matcher group. */
  const keys: Record<string, readonly string[]> = {
    command: Object.keys(CommandHandler.entries),
    http: Object.keys(HttpHandler.entries),
    prompt: Object.keys(PromptHandler.entries),
    agent: Object.keys(AgentHandler.entries),
    group: ["matcher", "hooks"],
  };

  const handler = v.variant("type", [CommandHandler, HttpHandler, PromptHandler, AgentHandler], (issue) =>
    `expected a handler with "type" one of ${HANDLER_TYPES.join(", ")}, got ${JSON.stringify((issue.input as { type?: unknown } | undefined)?.type ?? issue.input)}`,
  );

  const group = v.strictObject(
    {
      matcher: v.optional(v.string(got("expected a matcher string like \"Bash\" or \"Edit|Write\""))),
      hooks: v.array(handler, got("expected a list of handlers")),
    },
    unknownKey,
  );

  const hooks = v.pipe(
    v.record(v.string(), v.array(group, got("expected a list of matcher groups")), got("expected an object of hook events")),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      for (const event of Object.keys(dataset.value)) {
        if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
          addIssue({
            message: `unknown hook event ${JSON.stringify(event)} (rein runs ${HOOK_EVENTS.join(", ")})`,
            path: [{ type: "object", origin: "value", input: dataset.value, key: event, value: dataset.value[event] }],
          });
        }
      }
    }),
  );
  return { handler, group, hooks, keys };
}
let built: ReturnType<typeof build> | undefined;
const schemas = () => (built ??= build());

/** The keys rein reads, per handler type and for a matcher group. */
export const hookKeys = (): Record<string, readonly string[]> => schemas().keys;
export const hookGroupSchema = () => schemas().group;
export const HooksSchema = v.lazy(() => schemas().hooks);
export type HookHandler = v.InferOutput<ReturnType<typeof build>["handler"]>;
export type HookGroup = v.InferOutput<ReturnType<typeof build>["group"]>;
export type HooksConfig = Partial<Record<HookEvent, HookGroup[]>>;

function got(message: string) {
  return (issue: v.BaseIssue<unknown>) => `${message}, got ${issue.input === undefined ? "nothing" : JSON.stringify(issue.input)?.slice(0, 60)}`;
}

function unknownKey(issue: v.BaseIssue<unknown>): string {
  const key = JSON.stringify(issue.path?.at(-1)?.key);
  if (issue.expected === "never") return `unknown key ${key}`;
  return issue.input === undefined ? `missing key ${key}` : issue.message;
}
