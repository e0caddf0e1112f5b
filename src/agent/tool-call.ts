// The tool-call pipeline: validate -> before chain -> permission -> run -> after chain -> bound.
// Every failure becomes an error result written for the model to act on; nothing here throws.
import * as v from "valibot";
import type { Tool, ToolImage, ToolResult } from "../sdk.ts";
import { resolveTool } from "./lazy-tool.ts";
import { toolDefinition } from "./tool-schema.ts";
import type { AfterToolCall, LoopConfig, LoopIO, ToolResultBlock, ToolUseBlock } from "./types.ts";

export type CallOutcome = { block: ToolResultBlock; stop?: boolean };

export type CallOptions = {
  /** the reply was cut by the output limit while this call's input was being written */
  incomplete?: boolean;
  /** why this call's input could not be read, when it could not (not JSON, left unfinished by the stream) */
  unreadable?: string;
  /** set when the loop wants a person to confirm before running (the same call repeated) */
  confirmReason?: string;
};

export async function runToolCall(
  call: ToolUseBlock,
  tools: ReadonlyMap<string, Tool>,
  config: LoopConfig,
  io: LoopIO,
  signal: AbortSignal,
  options: CallOptions = {},
): Promise<CallOutcome> {
  io.emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
  const chain = io.chain ?? {};
  /** what the chain added beside the result, for the model only */
  const notes: string[] = [];
  /** `refused`: a permission (a rule, a person, the mode) or a PreToolUse hook refused the call */
  const finish = (output: string, isError: boolean, stop?: boolean, metadata?: Record<string, unknown>, images?: ToolImage[], refused?: boolean): CallOutcome => {
    // Failed runs are bounded too: a command that times out can print as much as one that succeeds.
    const bounded = io.bound(output, call.id);
    io.emit({
      type: "tool_end",
      id: call.id,
      name: call.name,
      is_error: isError,
      output: bounded.output,
      truncated: bounded.truncated,
      ...(metadata ? { metadata } : {}),
      ...(refused ? { refused: true } : {}),
    });
    const text = [bounded.output || "(no output)", ...notes].join("\n\n");
    const content: ToolResultBlock["content"] = images?.length
      ? [{ type: "text", text }, ...images.map((i) => ({ type: "image" as const, source: { type: "base64" as const, media_type: i.mediaType, data: i.base64 } }))]
      : text;
    const block: ToolResultBlock = { type: "tool_result", tool_use_id: call.id, content };
    if (isError) block.is_error = true;
    return { block, stop };
  };

  if (signal.aborted) return finish("Interrupted by the user; the tool did not run.", true);
  if (options.incomplete) {
    return finish(
      "Your reply hit the output token limit while writing this tool call, so its input was cut off and it did not run. Call it again with a smaller input (split large content over several calls).",
      true,
    );
  }
  if (options.unreadable !== undefined) {
    return finish(
      `The input of this tool call could not be read (${options.unreadable}), so it did not run. Call it again with its input as one JSON object that matches the tool's schema.`,
      true,
    );
  }
  const found = tools.get(call.name);
  if (!found) {
    const names = [...tools.keys()].join(", ");
    return finish(`Unknown tool "${call.name}". Available tools: ${names}.`, true);
  }
  let tool: Tool;
  try {
    tool = await resolveTool(found);
  } catch (error) {
    return finish(`Tool "${call.name}" could not be loaded: ${errorText(error)}`, true);
  }
  const parsed = v.safeParse(tool.input, call.input);
  if (!parsed.success) return finish(invalidInput(tool, parsed.issues), true);
  let input: unknown = parsed.output;

  const checked = chain.beforeToolCall ? await settled(chain.beforeToolCall({ id: call.id, name: tool.name, input, raw: call.input }, signal)) : undefined;
  if (checked instanceof Error) return finish(`The check before this call failed (${checked.message}), so it did not run.`, true);
  const before = checked;
  if (before?.context) notes.push(before.context);
  if (before?.block !== undefined) return finish(before.block, true, undefined, undefined, undefined, true);
  if (before?.input !== undefined) {
    const replaced = v.safeParse(tool.input, before.input);
    if (!replaced.success) return finish(`A hook replaced this call's input with one that is not valid, so the call did not run.\n${invalidInput(tool, replaced.issues)}`, true);
    input = replaced.output;
  }
  if (signal.aborted) return finish("Interrupted by the user; the tool did not run.", true);

  const requests = permissionRequests(tool, input, config.cwd);
  if (typeof requests === "string") return finish(requests, true);
  // A call that cannot run is refused before a person is asked to allow it (the run checks again).
  const unrunnable = tool.check ? await settled(Promise.resolve().then(() => tool.check!(input, { cwd: config.cwd, files: io.files, fileAccess: io.fileAccess }))) : undefined;
  if (typeof unrunnable === "string") return after({ output: unrunnable, isError: true }, 0);
  const reason = [options.confirmReason, before?.ask].filter(Boolean).join("; ");
  const auth = await io.authorize({ toolUseId: call.id, tool: tool.name, input, requests, ...(reason ? { reason } : {}), ...(before?.allow && !before.ask ? { hookAllow: true } : {}) });
  if (!auth.allow) return after({ output: auth.message, isError: true }, 0, auth.stop, true);
  if (signal.aborted) return finish("Interrupted by the user before the tool ran.", true);

  const startedAt = performance.now();
  const result = await runSafely(tool, input, {
    cwd: config.cwd,
    signal,
    sessionId: config.sessionId,
    toolUseId: call.id,
    output: (chunk) => io.emit({ type: "tool_output", id: call.id, chunk }),
    files: io.files,
    fileAccess: io.fileAccess,
    outputDir: io.outputDir,
    ...(io.history ? { history: io.history } : {}),
    env: io.toolEnv,
    sandbox: io.sandbox(auth.readOnly === true),
  });
  return after(result, performance.now() - startedAt);

  /** The after chain (or the failure chain), then the result as the model will read it. */
  async function after(result: RunOutcome, durationMs: number, stop?: boolean, refused?: boolean): Promise<CallOutcome> {
    const hook = result.isError ? chain.onToolError : chain.afterToolCall;
    const done = { id: call.id, name: call.name, input, raw: call.input, output: result.output, isError: result.isError, durationMs, ...(result.metadata ? { metadata: result.metadata } : {}) };
    const answer = hook ? await settled(hook(done, signal)) : undefined;
    // A failing after-check changes nothing: the tool has already run.
    const heard: AfterToolCall | undefined = answer instanceof Error ? undefined : answer;
    if (heard?.context) notes.push(heard.context);
    return finish(heard?.output ?? result.output, result.isError, stop, result.metadata, result.images, refused);
  }
}

function permissionRequests(tool: Tool, input: unknown, cwd: string) {
  if (!tool.permissions) return [{ permission: tool.name, pattern: "*", always: ["*"] }];
  try {
    return tool.permissions(input, { cwd });
  } catch (error) {
    return `Tool "${tool.name}" could not work out what this call touches: ${errorText(error)}`;
  }
}

type RunOutcome = { output: string; isError: boolean; metadata?: Record<string, unknown>; images?: ToolImage[] };

async function runSafely(tool: Tool, input: unknown, ctx: Parameters<Tool["run"]>[1]): Promise<RunOutcome> {
  try {
    const result: ToolResult = await tool.run(input, ctx);
    if (typeof result === "string") return { output: result, isError: false };
    if (!result || typeof result.output !== "string") {
      return { output: `Tool "${tool.name}" returned no output string (a tool must return a string or { output }).`, isError: true };
    }
    return {
      output: result.output,
      isError: result.isError === true,
      ...(result.metadata ? { metadata: result.metadata } : {}),
      ...(result.images?.length ? { images: result.images } : {}),
    };
  } catch (error) {
    if (ctx.signal.aborted) return { output: "Interrupted by the user.", isError: true };
    return { output: `Tool "${tool.name}" failed: ${errorText(error)}`, isError: true };
  }
}

function invalidInput(tool: Tool, issues: v.BaseIssue<unknown>[]): string {
  const problems = issues.map((issue) => {
    const path = v.getDotPath(issue);
    return `- ${path ? `${path}: ` : ""}${issue.message}`;
  });
  const schema = JSON.stringify(toolDefinition(tool).input_schema);
  return `Invalid input for tool "${tool.name}":\n${problems.join("\n")}\nFix the input and call it again. Expected schema: ${schema}`;
}

/** A chain function's answer, or what it threw. */
async function settled<T>(answer: Promise<T>): Promise<T | Error> {
  try {
    return await answer;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
