// The built-in tools, embedded in the binary.
import { seedToolDefinitions, type ToolDefinition } from "../agent/tool-schema.ts";
import type { Tool } from "../sdk.ts";
import bash from "../../tools/bash.ts";
import edit from "../../tools/edit.ts";
import glob from "../../tools/glob.ts";
import grep from "../../tools/grep.ts";
import history from "../../tools/history.ts";
import list from "../../tools/list.ts";
import read from "../../tools/read.ts";
import todo from "../../tools/todo.ts";
import webfetch from "../../tools/webfetch.ts";
import write from "../../tools/write.ts";

export { sandboxAvailable } from "../../tools/lib/sandbox.ts";

/** The built-ins' definitions as the model reads them, converted when the binary was built (build.ts). */
declare const REIN_BUILTIN_TOOL_DEFINITIONS: ToolDefinition[] | undefined;

const BUILTINS: readonly Tool[] = [bash, read, write, edit, glob, grep, list, webfetch, todo, history];
// Converting ten valibot schemas to JSON Schema costs a cold start 2-5 ms before the first request.
if (typeof REIN_BUILTIN_TOOL_DEFINITIONS !== "undefined") seedToolDefinitions(BUILTINS, REIN_BUILTIN_TOOL_DEFINITIONS);

export function builtinTools(): Tool[] {
  return [...BUILTINS];
}
