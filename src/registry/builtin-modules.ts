// The built-in tools' modules, in the order the model sees them. Imported at once from source; the
// compiled binary imports this only when a built-in tool is first needed (builtin.ts).
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

export const BUILTIN_MODULES: readonly Tool[] = [bash, read, write, edit, glob, grep, list, webfetch, todo, history];
