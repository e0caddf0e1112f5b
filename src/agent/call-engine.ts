// The one engine a tool call runs through: a list of handlers composed as hono composes middleware.
// Each handler gets the call's context and `next`; it may act before the rest of the list runs,
// end the call there by setting `c.result` and not calling `next`, or act on the result after
// `next` returns. A new interception is one more entry in the list (see call-steps.ts for the
// engine's own entries and session/call-handlers.ts for a session's list).
import * as v from "valibot";
import type { PermissionRequest, Tool, ToolImage } from "../sdk.ts";
import { toolDefinition } from "./tool-schema.ts";
import type { AfterToolCall, Authorization, BeforeToolCall, LoopConfig, LoopIO, ToolCallDone, ToolCallInfo, ToolUseBlock } from "./types.ts";

export type CallOptions = {
  /** the reply was cut by the output limit while this call's input was being written */
  incomplete?: boolean;
  /** why this call's input could not be read, when it could not (not JSON, left unfinished by the stream) */
  unreadable?: string;
  /** set when the loop wants a person to confirm before running (the same call repeated) */
  confirmReason?: string;
};

/** How a call ended, as the model will read it (before the output is bounded). */
export type CallResult = {
  output: string;
  isError: boolean;
  durationMs: number;
  metadata?: Record<string, unknown>;
  images?: ToolImage[];
  /** the run must stop (a permission nobody could answer) */
  stop?: boolean;
  /** a permission (a rule, a person, the mode) or a PreToolUse hook refused the call */
  refused?: boolean;
  /** the call never got as far as being tried (bad input, a hook's block, interrupted first): after-call handlers leave it alone */
  untried?: boolean;
};

export type CallContext = {
  readonly call: ToolUseBlock;
  readonly config: LoopConfig;
  readonly io: LoopIO;
  readonly signal: AbortSignal;
  readonly options: CallOptions;
  /** the turn's tools, by name */
  readonly tools: ReadonlyMap<string, Tool>;
  /** the tool, once the call named one that loaded */
  tool?: Tool;
  /** the input the call runs with: the model's, then the schema's output, then what a handler put instead */
  input: unknown;
  /** what the call touches, as the permission check sees it */
  requests?: PermissionRequest[];
  /** reasons a handler gave for a person to confirm the call */
  asks: string[];
  /** a PreToolUse hook from Claude Code's files allowed the call (it answers an ask a rule would make) */
  hookAllow?: boolean;
  /** the permission decision, once made */
  auth?: Authorization;
  /** what the handlers added beside the result, for the model only */
  notes: string[];
  result?: CallResult;
};

export type CallHandler = (c: CallContext, next: () => Promise<void>) => Promise<void>;

/** The handlers as one: each runs with `next` calling the one after it (hono's compose). */
export function compose(handlers: readonly CallHandler[]): (c: CallContext) => Promise<void> {
  return (c) => {
    let last = -1;
    const dispatch = async (i: number): Promise<void> => {
      if (i <= last) throw new Error("a call handler called next() twice");
      last = i;
      const handler = handlers[i];
      if (handler) await handler(c, () => dispatch(i + 1));
    };
    return dispatch(0);
  };
}

/** Ends the call with this result (the handler then does not call `next`). */
export function endCall(c: CallContext, output: string, isError: boolean, extra: Partial<Omit<CallResult, "output" | "isError">> = {}): void {
  c.result = { output, isError, durationMs: 0, ...extra };
}

/** What handlers outside the run are told of the call. */
export function callInfo(c: CallContext): ToolCallInfo {
  return { id: c.call.id, name: c.tool?.name ?? c.call.name, input: c.input, raw: c.call.input };
}

/** What after-call handlers are told of a call that was tried. */
export function callDone(c: CallContext, result: CallResult): ToolCallDone {
  return { id: c.call.id, name: c.call.name, input: c.input, raw: c.call.input, output: result.output, isError: result.isError, durationMs: result.durationMs, ...(result.metadata ? { metadata: result.metadata } : {}) };
}

type BeforeFn = (call: ToolCallInfo, signal: AbortSignal) => Promise<BeforeToolCall | undefined>;
type AfterFn = (call: ToolCallDone, signal: AbortSignal) => Promise<AfterToolCall | undefined>;

/**
 * An entry from a before-call function (after the input is valid, before the permission check): it
 * may block the call, ask a person, replace the input (checked again against the schema) or add
 * context. One that throws fails closed: the call does not run.
 */
export function beforeCall(before: BeforeFn): CallHandler {
  return async (c, next) => {
    const heard = await settled(before(callInfo(c), c.signal));
    if (heard instanceof Error) return endCall(c, `The check before this call failed (${heard.message}), so it did not run.`, true, { untried: true });
    if (heard?.context) c.notes.push(heard.context);
    if (heard?.block !== undefined) return endCall(c, heard.block, true, { refused: true, untried: true });
    if (heard?.input !== undefined) {
      const problem = revalidate(c, heard.input);
      if (problem !== undefined) return endCall(c, `A hook replaced this call's input with one that is not valid, so the call did not run.\n${problem}`, true, { untried: true });
    }
    if (heard?.ask) c.asks.push(heard.ask);
    else if (heard?.allow) c.hookAllow = true;
    await next();
  };
}

/**
 * An entry from an after-call function: once the rest of the list has tried the call, it may
 * replace the output and add context. `on` picks the calls it hears: those that succeeded (the
 * default), those that failed (an error result, a refused permission included), or both. A
 * failing one changes nothing: the tool has already run.
 */
export function afterCall(after: AfterFn, on: "success" | "failure" | "both" = "success"): CallHandler {
  return async (c, next) => {
    await next();
    const result = c.result;
    if (!result || result.untried || (on === "success" && result.isError) || (on === "failure" && !result.isError)) return;
    const heard = await settled(after(callDone(c, result), c.signal));
    if (heard instanceof Error || !heard) return;
    if (heard.output !== undefined) result.output = heard.output;
    if (heard.context) c.notes.push(heard.context);
  };
}

/** Sets the input when it matches the tool's schema; otherwise says what is wrong, for the model. */
export function revalidate(c: CallContext, input: unknown): string | undefined {
  const tool = c.tool!;
  const parsed = v.safeParse(tool.input, input);
  if (!parsed.success) return invalidInput(tool, parsed.issues);
  c.input = parsed.output;
  return undefined;
}

function invalidInput(tool: Tool, issues: v.BaseIssue<unknown>[]): string {
  const problems = issues.map((issue) => {
    const path = v.getDotPath(issue);
    return `- ${path ? `${path}: ` : ""}${issue.message}`;
  });
  const schema = JSON.stringify(toolDefinition(tool).input_schema);
  return `Invalid input for tool "${tool.name}":\n${problems.join("\n")}\nFix the input and call it again. Expected schema: ${schema}`;
}

/** A function's answer, or what it threw. */
export async function settled<T>(answer: Promise<T>): Promise<T | Error> {
  try {
    return await answer;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
