// A tool known by what the model reads (its definition) and whether it is read-only, whose module
// loads the first time a call needs it. The compiled binary offers its built-in tools this way, so
// a run that calls no tool never loads them (about 5 ms of every start).
import type { Tool } from "../sdk.ts";
import { rememberToolDefinition, type ToolDefinition } from "./tool-schema.ts";

/** What a built-in tool looks like before its module loads; computed when the binary is built. */
export type ToolSpec = { definition: ToolDefinition; readOnly: boolean };

const LOAD = Symbol("rein.loadTool");
type Lazy = Tool & { [LOAD]: () => Promise<Tool> };

/** A stand-in for the tool `spec` describes; `load` gives the real one (called at most once). */
export function lazyTool(spec: ToolSpec, load: () => Promise<Tool>): Tool {
  let loading: Promise<Tool> | undefined;
  const real = () => (loading ??= load());
  const notLoaded = (): never => {
    throw new Error(`tool "${spec.definition.name}" is used before its module was loaded (resolveTool)`);
  };
  const stub: Lazy = {
    name: spec.definition.name,
    description: spec.definition.description,
    readOnly: spec.readOnly,
    get input() {
      return notLoaded();
    },
    permissions: notLoaded,
    run: async (input, ctx) => (await real()).run(input, ctx),
    [LOAD]: real,
  };
  rememberToolDefinition(stub, spec.definition);
  return stub;
}

/** The tool itself: a lazy tool's loaded module, any other tool as it is. */
export function resolveTool(tool: Tool): Promise<Tool> | Tool {
  return LOAD in tool ? (tool as Lazy)[LOAD]() : tool;
}
