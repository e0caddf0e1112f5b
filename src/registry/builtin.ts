// The built-in tools, embedded in the binary.
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

export function builtinTools(): Tool[] {
  return [bash, read, write, edit, glob, grep, list, webfetch, todo, history];
}
