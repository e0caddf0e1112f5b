// rein tools list: every tool the model gets, where it came from, and the files that failed to load.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import toolTypes from "./tool-types.d.ts.txt" with { type: "text" };
import { projectPaths } from "../config/paths.ts";
import { toolRegistry } from "../app/factory.ts";
import { formatLoadError } from "../app/load-errors.ts";
import { UsageError } from "../app/args.ts";
import { toolDirs, untrustedToolsWarning, type Context } from "../app/context.ts";
import { out } from "../app/output.ts";

export async function toolsCommand(rest: string[], ctx: Context): Promise<number> {
  const [action = "list", where] = rest;
  if (action === "init") return init(ctx, where);
  if (action !== "list") throw new UsageError(`unknown action "${action}" (rein tools list | init [user|project])`);
  const { tools, errors } = await toolRegistry(toolDirs(ctx)).list();
  if (ctx.args.json) {
    const rows = tools.map(({ tool, source, file }) => ({ name: tool.name, source, ...(file ? { file } : {}), description: tool.description }));
    const session = SESSION_TOOLS.map((t) => ({ name: t.name, source: "session", description: `${t.summary} (${t.when})` }));
    out(`${JSON.stringify({ tools: [...rows, ...session], errors }, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...[...tools.map((t) => t.tool.name), ...SESSION_TOOLS.map((t) => t.name)].map((n) => n.length)) + 2;
  for (const { tool, source, file } of tools) {
    const summary = tool.description.split("\n")[0]!.slice(0, 70);
    out(`${tool.name.padEnd(width)}${source.padEnd(10)}${file ? `${file}  ` : ""}${summary}\n`);
  }
  for (const t of SESSION_TOOLS) out(`${t.name.padEnd(width)}${"session".padEnd(10)}${t.summary} (${t.when})\n`);
  if (errors.length > 0) out(`\nnot loaded:\n${errors.map(formatLoadError).join("\n")}\n`);
  const untrusted = untrustedToolsWarning(ctx);
  if (untrusted) out(`\n${untrusted}\n`);
  return 0;
}

/** The tools a session adds to the registry's, made from its agents, skills and memory. */
const SESSION_TOOLS = [
  { name: "task", summary: "runs a subagent on a task of its own", when: "with any agent to run; rein agents list" },
  { name: "skill", summary: "loads a skill's instructions", when: "when skills are found; rein skills list" },
  { name: "memory", summary: "durable notes across sessions, outside the repository", when: "with memory on; rein memory list" },
];

const TSCONFIG = {
  compilerOptions: {
    target: "ESNext",
    module: "Preserve",
    moduleResolution: "bundler",
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: [],
  },
  include: ["**/*.ts"],
};

/** Writes the tool types and a tsconfig.json into a tools folder, so an editor can type-check tools there. */
function init(ctx: Context, where = "user"): number {
  if (where !== "user" && where !== "project") throw new UsageError(`rein tools init takes user or project, not "${where}"`);
  const dir = where === "user" ? ctx.paths.userTools : projectPaths(ctx.projectRoot).tools;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "rein-tool.d.ts"), toolTypes);
  const tsconfig = join(dir, "tsconfig.json");
  if (!existsSync(tsconfig)) writeFileSync(tsconfig, `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  out(`wrote ${join(dir, "rein-tool.d.ts")} and ${tsconfig}\n`);
  out(`for valibot's types in your editor: cd ${dir} && npm install --save-dev valibot\n`);
  return 0;
}
