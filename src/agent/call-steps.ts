// The engine's own entries for a tool call's list (call-engine.ts): validate the call, work out what
// it touches, let the tool refuse an input it cannot run, ask the permission check, run the tool.
// Every failure becomes a result written for the model to act on; nothing here throws.
import type { Tool, ToolResult } from "../sdk.ts";
import { endCall, revalidate, settled, type CallHandler, type CallResult } from "./call-engine.ts";
import { resolveTool } from "./lazy-tool.ts";

const INTERRUPTED = "Interrupted by the user; the tool did not run.";

/** The call is readable, names a tool that loads, and its input matches the tool's schema. */
export const validate: CallHandler = async (c, next) => {
  const { call, options } = c;
  if (c.signal.aborted) return endCall(c, INTERRUPTED, true, { untried: true });
  if (options.incomplete) {
    const text = "Your reply hit the output token limit while writing this tool call, so its input was cut off and it did not run. Call it again with a smaller input (split large content over several calls).";
    return endCall(c, text, true, { untried: true });
  }
  if (options.unreadable !== undefined) {
    const text = `The input of this tool call could not be read (${options.unreadable}), so it did not run. Call it again with its input as one JSON object that matches the tool's schema.`;
    return endCall(c, text, true, { untried: true });
  }
  const found = c.tools.get(call.name);
  if (!found) return endCall(c, `Unknown tool "${call.name}". Available tools: ${[...c.tools.keys()].join(", ")}.`, true, { untried: true });
  let tool: Tool;
  try {
    tool = await resolveTool(found);
  } catch (error) {
    return endCall(c, `Tool "${call.name}" could not be loaded: ${errorText(error)}`, true, { untried: true });
  }
  c.tool = tool;
  const problem = revalidate(c, call.input);
  if (problem !== undefined) return endCall(c, problem, true, { untried: true });
  await next();
};

/** What the call touches, from the tool's own permissions function (a tool without one asks for itself, whole). */
export const requests: CallHandler = async (c, next) => {
  if (c.signal.aborted) return endCall(c, INTERRUPTED, true, { untried: true });
  const tool = c.tool!;
  if (!tool.permissions) c.requests = [{ permission: tool.name, pattern: "*", always: ["*"] }];
  else {
    try {
      c.requests = tool.permissions(c.input, { cwd: c.config.cwd });
    } catch (error) {
      return endCall(c, `Tool "${tool.name}" could not work out what this call touches: ${errorText(error)}`, true, { untried: true });
    }
  }
  await next();
};

/** A call that cannot run is refused before a person is asked to allow it (the run checks again). */
export const check: CallHandler = async (c, next) => {
  const tool = c.tool!;
  if (tool.check) {
    const unrunnable = await settled(Promise.resolve().then(() => tool.check!(c.input, { cwd: c.config.cwd, files: c.io.files, fileAccess: c.io.fileAccess })));
    if (typeof unrunnable === "string") return endCall(c, unrunnable, true);
  }
  await next();
};

/** The permission check decides (rules, asks, approvals: the loop's owner); a refusal is the call's error result. */
export const permission: CallHandler = async (c, next) => {
  const reason = [c.options.confirmReason, ...c.asks].filter(Boolean).join("; ");
  const auth = await c.io.authorize({ toolUseId: c.call.id, tool: c.tool!.name, input: c.input, requests: c.requests!, ...(reason ? { reason } : {}), ...(c.hookAllow && c.asks.length === 0 ? { hookAllow: true } : {}) });
  c.auth = auth;
  if (!auth.allow) return endCall(c, auth.message, true, { ...(auth.stop ? { stop: true } : {}), refused: true });
  await next();
};

/** The tool runs, in the sandbox the permission decision implies; what it throws becomes its error result. */
export const run: CallHandler = async (c) => {
  if (c.signal.aborted) return endCall(c, "Interrupted by the user before the tool ran.", true, { untried: true });
  const { call, config, io, signal } = c;
  const startedAt = performance.now();
  const result = await runSafely(c.tool!, c.input, {
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
    sandbox: io.sandbox(c.auth?.allow === true && c.auth.readOnly === true),
  });
  c.result = { ...result, durationMs: performance.now() - startedAt };
};

/** The engine's own list: what a call runs through when its owner adds nothing. */
export const CALL_STEPS: readonly CallHandler[] = [validate, requests, check, permission, run];

async function runSafely(tool: Tool, input: unknown, ctx: Parameters<Tool["run"]>[1]): Promise<Omit<CallResult, "durationMs">> {
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

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
