// Tools a session rarely needs, whose definitions are not sent until the model asks for them: each
// is a line in the load_tools tool's description instead. They stay callable all along (a call by
// name runs as usual); once loaded, a tool is sent with its full definition from the next turn on,
// for the rest of the session. What every request carries stays small without losing a tool.
import * as v from "valibot";
import { deferredCopy } from "../agent/tool-schema.ts";
import { defineTool, type Tool } from "../sdk.ts";

export const LOAD_TOOLS = "load_tools";

/** What the model reads of a deferred tool before it loads it (nothing beyond a name that says it all); others get the first clause of their description. */
const SUMMARY: Record<string, string> = {
  list: "a folder as a tree",
  history: "this session's stored conversation",
  webfetch: "GET a URL as text",
  send_message: "to a worker or the lead",
  task_stop: "",
  task_output: "",
  memory: "notes kept across sessions",
  team_create: "a team's task list",
  team_delete: "a team's task list",
  task_create: "a team's task list",
  task_update: "a team's task list",
  task_list: "a team's task list",
};

export type ToolDeferral = { offer: (tools: readonly Tool[]) => Tool[] };

export function toolDeferral(names: readonly string[]): ToolDeferral {
  const loaded = new Set<string>();
  const copies = new WeakMap<Tool, Tool>();
  const loaders = new Map<string, Tool>();
  const copyOf = (tool: Tool) => {
    let copy = copies.get(tool);
    if (!copy) copies.set(tool, (copy = deferredCopy(tool)));
    return copy;
  };
  const loaderFor = (waiting: readonly Tool[]) => {
    const key = waiting.map((t) => t.name).join(",");
    let loader = loaders.get(key);
    if (!loader) loaders.set(key, (loader = loadTool(waiting, (found) => found.forEach((name) => loaded.add(name)))));
    return loader;
  };
  return {
    offer(tools) {
      const waiting = tools.filter((t) => names.includes(t.name) && !loaded.has(t.name));
      if (waiting.length === 0 || tools.some((t) => t.name === LOAD_TOOLS)) return [...tools];
      return [...tools.map((t) => (waiting.includes(t) ? copyOf(t) : t)), loaderFor(waiting)];
    },
  };
}

function loadTool(waiting: readonly Tool[], load: (names: string[]) => void): Tool {
  // Tools with one summary share one entry (`a, b, c (what they are for)`); an empty summary is the name alone.
  const groups = new Map<string, string[]>();
  for (const t of waiting) {
    const summary = SUMMARY[t.name] ?? firstClause(t.description);
    const key = summary === "" ? `\u0000${t.name}` : summary;
    groups.set(key, [...(groups.get(key) ?? []), t.name]);
  }
  const lines = [...groups].map(([summary, names]) => (summary.startsWith("\u0000") ? names[0] : `${names.join(", ")} (${summary})`)).join(", ");
  return defineTool({
    name: LOAD_TOOLS,
    description: `Tools sent once loaded: ${lines}. Name those you need (sent next turn).`,
    input: v.object({ names: v.array(v.string()) }),
    readOnly: true,
    permissions: () => [],
    run: ({ names }) => {
      const known = names.filter((name) => waiting.some((t) => t.name === name));
      const unknown = names.filter((name) => !known.includes(name));
      if (known.length === 0) return { output: `None of ${names.join(", ") || "(no names)"} is a tool to load; these are: ${waiting.map((t) => t.name).join(", ")}.`, isError: true };
      load(known);
      return `Loaded ${known.join(", ")}: described from your next turn.${unknown.length ? ` Not tools to load: ${unknown.join(", ")}.` : ""}`;
    },
  });
}

function firstClause(description: string): string {
  const clause = description.split(/[.:;\n]/)[0]!.trim();
  return clause.length > 60 ? `${clause.slice(0, 57)}...` : clause;
}
