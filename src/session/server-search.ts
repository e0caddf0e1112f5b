// Anthropic's server-side web search (`"webSearch": {"server": true}`): the provider runs the
// search, so the tool goes with every request rather than through the tool pipeline. A deny rule
// for `websearch`, or an agent whose tools leave it out, keeps it from the model as it would the
// websearch tool; the stand-in below is how the rules are asked.
import * as v from "valibot";
import type { StreamFn } from "../agent/types.ts";
import { defineTool } from "../sdk.ts";

export const searchStandIn = defineTool({ name: "websearch", description: "", input: v.object({}), run: () => "" });

export function withServerSearch(stream: StreamFn, tool: Record<string, unknown>, offered: () => boolean): StreamFn {
  return (request, signal) => stream(offered() ? { ...request, serverTools: [...(request.serverTools ?? []), tool] } : request, signal);
}
