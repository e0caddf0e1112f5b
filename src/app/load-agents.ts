// The workspace's agents for a front end: with no agent file to read (no folder there, none inline,
// none from a plugin) they are the built-ins, without loading the agent-file parser
// (agents/sources.ts and parse.ts); otherwise what agents/sources.ts reads.
import { existsSync } from "node:fs";
import { builtinAgents } from "../agents/builtin.ts";
import { agentFolders } from "../agents/folders.ts";
import type { AgentSourceContext } from "../agents/sources.ts";
import type { AgentDefinition, AgentReport } from "../agents/types.ts";

export function loadAgents(ctx: AgentSourceContext): { agents: AgentDefinition[]; report: AgentReport } {
  const none = !ctx.inline?.length && !ctx.plugins?.length && !agentFolders(ctx).some((folder) => existsSync(folder.dir));
  if (none) return { agents: builtinAgents(ctx.projectRoot), report: { warnings: [], notes: [] } };
  return (require("../agents/sources.ts") as typeof import("../agents/sources.ts")).loadAgents(ctx);
}
