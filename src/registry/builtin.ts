// The built-in tools. Run from source (tests, `bun src/main.ts`) they are the tool modules
// themselves. In the compiled binary they start as lazy tools made from what build.ts computed
// (each tool's definition and whether it is read-only): the first request needs nothing more, and
// the modules load with the first tool call, or while the model writes it (warmBuiltinTools).
import { lazyTool, type ToolSpec } from "../agent/lazy-tool.ts";
import type { Tool } from "../sdk.ts";

export { sandboxAvailable } from "../../tools/lib/sandbox.ts";
export { backgroundCommand, stopBackground, stopOneBackground, type BackgroundCommand } from "../../tools/lib/background.ts";
export { serverSearchTool, websearchTool, type WebSearchSettings } from "../../tools/lib/websearch.ts";

declare const REIN_BUILTIN_TOOLS: ToolSpec[] | undefined;

const loadModules = () => import("./builtin-modules.ts");
const SPECS = typeof REIN_BUILTIN_TOOLS === "undefined" ? undefined : REIN_BUILTIN_TOOLS;
const EAGER = SPECS ? undefined : (await loadModules()).BUILTIN_MODULES;

export function builtinTools(): Tool[] {
  if (EAGER) return [...EAGER];
  return SPECS!.map((spec) =>
    lazyTool(spec, async () => {
      const tool = (await loadModules()).BUILTIN_MODULES.find((t) => t.name === spec.definition.name);
      if (!tool) throw new Error(`no built-in tool "${spec.definition.name}" in this build`);
      return tool;
    }),
  );
}

/** Starts loading the built-in tools' modules; nothing to do when they are loaded already. */
export function warmBuiltinTools(): void {
  if (SPECS) void loadModules().catch(() => {});
}

/**
 * The model began writing a bash call: the shared read-only sandbox starts now, with the masks and
 * environment a read-only call of this session gets, unless one has started already
 * (tools/lib/sandbox-shell.ts prepareShell). Loaded with the bash tool, not before.
 */
export function prepareBash(policy: () => { masked: readonly string[]; env: Readonly<Record<string, string>> }): void {
  void import("../../tools/lib/sandbox-shell.ts").then((shell) => shell.prepareShell(policy)).catch(() => {});
}
