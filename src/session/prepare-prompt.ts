// The first step of a prompt: from what was typed to the user message the loop starts from. A
// `/command` is planned and expanded (its UserPromptExpansion hooks, its inline `` !`cmd` ``), MCP
// resources named with `@SERVER:URI` attached, taint noted, SessionStart and UserPromptSubmit heard;
// any of them may end the run before a model call (then the result is returned instead).
import type { ContentBlock, Message, ResultStatus, TextBlock } from "../agent/types.ts";
import { inlineBash } from "./inline-bash.ts";
import { expandInlineCommands, hasInlineCommands } from "./inline-commands.ts";
import type { ResultFields, SessionCore } from "./session-core.ts";
import { deadWorkerNotes } from "./worker-rows.ts";

/** How a run ends: its status and result's fields (run-prompt.ts emits the result as it lets go, in the same tick). */
export type Ending = { status: ResultStatus; fields: ResultFields };
/** The prompt is in the conversation and the loop may run with `model`; or the run ends with `done`. */
export type Prepared = { model: string } | { done: Ending };

export async function preparePrompt(core: SessionCore, text: string, attachments: readonly ContentBlock[], signal: AbortSignal): Promise<Prepared> {
  const { options } = core;
  const end = (status: "error" | "success" | "stopped", fields: ResultFields): Prepared => ({ done: { status, fields } });
  const plan = (await options.skills?.plan(text, signal)) ?? { type: "text" as const };
  if (plan.type === "error") return end("error", { error: plan.error });
  if (plan.type === "command") options.skills!.grants.push(...plan.grants);
  const model = plan.type === "command" && plan.model ? (options.models?.resolve?.(plan.model, options.model) ?? plan.model) : options.model;
  let sent = plan.type === "command" ? plan.text : text;
  const expansion = plan.type === "command" ? await core.hooks?.points.beforeExpansion(expansionOf(core, plan.name, text), signal) : undefined;
  if (expansion?.block !== undefined) return end("error", { error: `a UserPromptExpansion hook blocked /${plan.type === "command" ? plan.name : ""}: ${expansion.block}` });
  if (plan.type === "command" && hasInlineCommands(sent)) {
    const expanded = await expandInlineCommands(sent, inlineBash(core, signal), plan.name);
    if ("error" in expanded) return end("error", { error: expanded.error });
    sent = expanded.text;
  }
  const resources = (await options.mcp?.attach(sent, signal)) ?? [];
  if ("error" in resources) return end("error", { error: resources.error });
  const taint = core.taint;
  if (resources.length && taint) for (const server of mcpResources().mentionedServers(sent)) core.noteTaint(taint.observe(`mcp__${server}__resource`, {}, undefined, false, core.assistantTurns + 1).added);
  if (plan.type === "command" && plan.untrusted && taint) {
    const source = { kind: "untrusted-repo" as const, source: `/${plan.name} (a command of this untrusted workspace)`, turn: core.assistantTurns + 1 };
    if (taint.add(source)) core.noteTaint(source);
  }
  const added = [...(plan.type === "command" ? (plan.attachments ?? []) : []), ...resources, ...attachments];
  core.hooks?.points.newRun();
  const heard = await hooksBeforePrompt(core, sent, signal);
  const halt = core.hooks?.points.chain.halted?.();
  const claudeStop = core.hooks?.points.claudeStop();
  // Claude Code's files stop or block a prompt as Claude Code does: a success whose text says so.
  if (halt && claudeStop) return end("success", { text: `Operation stopped by hook: ${claudeStop.reason}`, hookStop: claudeStop });
  if (halt) return end("stopped", { error: halt });
  if (heard.claude !== undefined) return end("success", { text: heard.claude, hookStop: { event: "UserPromptSubmit", reason: heard.block ?? "" } });
  if (heard.block !== undefined) return end("error", { error: `a UserPromptSubmit hook blocked the prompt: ${heard.block}` });
  if (core.messages.length === 0 && !core.row.title) options.store.updateSession(core.id, { title: titleOf(text) });
  const user = core.emit({ type: "user", text: sent, ...(plan.type === "command" ? { typed: text } : {}) });
  const notes = [...(expansion?.context ? [expansion.context] : []), ...heard.context];
  const userMessage: Message = { role: "user", content: [{ type: "text", text: sent }, ...added, ...notes.map((note) => ({ type: "text" as const, text: note })), ...deadWorkers(core)] };
  core.checkpoints?.begin(user.seq, core.messages.length);
  core.messages.push(userMessage);
  options.store.appendMessage(core.id, userMessage, user.seq);
  return { model };
}

/** What UserPromptExpansion hooks hear of a `/command` (Claude Code's fields: an MCP prompt or a command, and where it came from). */
function expansionOf(core: SessionCore, name: string, typed: string) {
  const skills = core.options.skills;
  const command = skills?.loaded.commands.find((c) => c.name === name);
  const mcp = !command && skills?.prompts?.owns(name) === true;
  const source = mcp ? "mcp" : command?.plugin ? "plugin" : (command?.source ?? "user");
  const args = typed.trim().replace(/^\/\S+\s*/, "");
  return { type: mcp ? ("mcp_prompt" as const) : ("slash_command" as const), name, args, source, prompt: typed };
}

/** SessionStart (once a process) and UserPromptSubmit: a block refuses the prompt; context goes beside it. */
async function hooksBeforePrompt(core: SessionCore, text: string, signal: AbortSignal): Promise<{ block?: string; claude?: string; context: string[] }> {
  if (!core.hooks) return { context: [] };
  const context: string[] = [];
  if (!core.hooksStarted) {
    core.hooksStarted = true;
    const source = core.options.startSource ?? (core.messages.length > 0 ? "resume" : "startup");
    core.options = { ...core.options, startSource: undefined };
    const start = await core.hooks.points.sessionStart(source, signal);
    if (start.context) context.push(start.context);
  }
  context.push(...core.hooks.points.takeLate());
  const heard = await core.hooks.points.beforePrompt(text, signal);
  if (heard.context) context.push(heard.context);
  return { ...(heard.block !== undefined ? { block: heard.block } : {}), ...(heard.claude !== undefined ? { claude: heard.claude } : {}), context };
}

/** Once a process, for a continued session that can start workers: the notifications of those a crash left running (now failed). */
function deadWorkers(core: SessionCore): TextBlock[] {
  if (core.checkedWorkers || !core.options.team || core.messages.length === 0) return [];
  core.checkedWorkers = true;
  return deadWorkerNotes(core.options.store, core.id, core.options.team.current).map((note) => ({ type: "text" as const, text: note }));
}

function titleOf(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/** Only a session with MCP servers attaches resources: the module loads with the first. */
const mcpResources = () => require("../mcp/resources.ts") as typeof import("../mcp/resources.ts");
