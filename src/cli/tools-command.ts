// rein tools list: the tools the model gets, and where each came from.
import { availableTools } from "../session/factory.ts";
import { UsageError } from "./args.ts";
import { out } from "./output.ts";

export function toolsCommand(rest: string[]): number {
  const [action = "list"] = rest;
  if (action !== "list") throw new UsageError(`unknown action "${action}" (rein tools list)`);
  for (const tool of availableTools()) {
    out(`${tool.name.padEnd(12)} built-in  ${tool.description.split("\n")[0]}\n`);
  }
  return 0;
}
