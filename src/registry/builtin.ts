// The built-in tools, embedded in the binary.
import type { Tool } from "../sdk.ts";
import bash from "../../tools/bash.ts";

export function builtinTools(): Tool[] {
  return [bash];
}
