// How a command's `` !`cmd` `` runs: the session's bash tool, decided by the broker with nobody
// asked (inline-commands.ts), in the session's folder, sandbox and environment.
import { join } from "node:path";
import { resolveTool } from "../agent/lazy-tool.ts";
import { diskFiles, type Tool } from "../sdk.ts";
import { newId } from "./ids.ts";
import type { InlineIO } from "./inline-commands.ts";
import { turnTools } from "./loop-io.ts";
import type { SessionCore } from "./session-core.ts";
import { NO_SANDBOX } from "./session-options.ts";

export function inlineBash(core: SessionCore, signal: AbortSignal): InlineIO {
  const bash = async () => {
    const tool = (await turnTools(core)).find((t) => t.name === "bash");
    return tool && (await resolveTool(tool));
  };
  const requestsOf = (tool: Tool, command: string) => tool.permissions?.({ command }, { cwd: core.row.cwd }) ?? [{ permission: "bash", pattern: command, always: [] }];
  const decided = new Map<string, boolean>();
  return {
    check: async (command) => {
      const tool = await bash();
      if (!tool) return "the bash tool is not offered in this session";
      const decision = await core.broker.decide(requestsOf(tool, command));
      if (!decision.allow) return decision.why;
      decided.set(command, decision.readOnly);
      return undefined;
    },
    run: async (command) => {
      const tool = (await bash())!;
      const { masked, ...sandbox } = core.options.sandbox ?? NO_SANDBOX;
      const readOnly = decided.get(command) === true;
      const ran = await tool.run(
        { command },
        {
          cwd: core.row.cwd,
          signal,
          sessionId: core.id,
          toolUseId: newId("inline"),
          output: () => undefined,
          files: core.files,
          fileAccess: core.options.fileAccess ?? diskFiles,
          outputDir: join(core.options.outputDir, core.id),
          env: core.toolEnv,
          sandbox: { ...sandbox, readOnly, masked: masked(readOnly) },
        },
      );
      return typeof ran === "string" ? { output: ran, isError: false } : { output: ran.output, isError: ran.isError === true };
    },
  };
}
