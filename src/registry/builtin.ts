// The built-in tools, embedded in the binary.
import type { Tool } from "../sdk.ts";
import bash from "../../tools/bash.ts";
import todo from "../../tools/todo.ts";
import webfetch from "../../tools/webfetch.ts";

export function builtinTools(): Tool[] {
  return [bash, webfetch, todo];
}
