// A prompt's run, as a pipeline of named steps: take the session (the lease), prepare the prompt
// (prepare-prompt.ts), run the loop with its IO (loop-io.ts), answer the workers still going (print
// mode), and close the run with its result, the children's spending rolled up (subagent-parent.ts).
// Whatever happens, the run's state is reset after it.
import { runLoop, type LoopResult } from "../agent/loop.ts";
import { addUsage, emptyUsage, type ContentBlock, type Message, type RunSpend } from "../agent/types.ts";
import { loopConfig, loopIO } from "./loop-io.ts";
import { preparePrompt, type Ending } from "./prepare-prompt.ts";
import { internalError, type SessionCore } from "./session-core.ts";
import type { ResultEvent } from "./session-options.ts";
import { noChildSpend, withChildSpend } from "./subagent-parent.ts";

export async function runPrompt(core: SessionCore, text: string, attachments: readonly ContentBlock[]): Promise<ResultEvent> {
  if (core.controller) throw new Error("a prompt is already running in this session");
  const controller = new AbortController();
  const { signal } = controller;
  core.controller = controller;
  core.inRun = true;
  core.runSpend = core.options.spend ?? teamSpend(core) ?? { spent: 0 };
  const startedAt = core.now;
  // Grants made during this run end with it; a subagent's run shares the list and drops only its own.
  const grantsBefore = core.options.skills?.grants.length ?? 0;
  try {
    const busy = text.trim() ? await core.claim(signal) : "the prompt is empty (or only whitespace): nothing was sent";
    core.announce();
    if (busy !== undefined) return core.refused(busy, signal, startedAt);
    const prepared = await preparePrompt(core, text, attachments, signal);
    // The result is emitted here, so the run lets go of the session (finally) in the same tick.
    const ending = "done" in prepared ? prepared.done : await closeRun(core, await runTheLoop(core, prepared.model, signal));
    return core.result(startedAt, ending.status, ending.fields);
  } catch (error) {
    await checkpointEnd(core).catch(() => undefined);
    const status = signal.aborted && !core.saveError ? "interrupted" : "error";
    return core.result(startedAt, status, { usage: core.runUsage, error: core.saveError ?? internalError(error) });
  } finally {
    endRun(core, grantsBefore);
  }
}

/** The loop over the prepared conversation; in print mode, then each batch of the workers' notifications answered in this run. */
async function runTheLoop(core: SessionCore, model: string, signal: AbortSignal): Promise<LoopResult> {
  const config = loopConfig(core, model);
  const io = loopIO(core, model, signal);
  let result = await runLoop(core.messages, config, io, signal);
  const team = core.options.team?.current;
  while (core.waitsForWorkers && team && result.status === "success" && !signal.aborted && team.busy(core.id)) {
    await team.next(core.id, signal);
    const mail = team.inbox(core.id);
    if (mail.length === 0 || signal.aborted) continue;
    const told = core.emit({ type: "user", text: mail.map((b) => b.text).join("\n\n") });
    const message: Message = { role: "user", content: mail };
    core.messages.push(message);
    core.saving(() => core.options.store.appendMessage(core.id, message, told.seq));
    // --max-cost holds across it all: the run's spending (the workers' included) is shared in config.spend.
    const more = await runLoop(core.messages, { ...config, maxTurns: Math.max(1, config.maxTurns - result.turns) }, io, signal);
    const cost = result.cost === null || more.cost === null ? null : Math.round((result.cost + more.cost) * 1e6) / 1e6;
    result = { ...more, usage: addUsage(result.usage, more.usage), cost, turns: result.turns + more.turns };
  }
  // Interrupted while it waited for its workers: the run did not end as it would have.
  if (signal.aborted && result.status === "success") result = { ...result, status: "interrupted" };
  return result;
}

/** The turn's checkpoint, the session's row touched, and the result: the children's spending added, a lost save or lease as the error. */
async function closeRun(core: SessionCore, result: LoopResult): Promise<Ending> {
  await checkpointEnd(core);
  core.storedSize = undefined; // the messages may have been compacted; later runs estimate
  core.saving(() => core.options.store.updateSession(core.id, {}));
  const failure = core.saveError ?? core.lease.lost();
  const { usage, cost } = withChildSpend(core, result.usage, result.cost);
  const hookStop = failure ? undefined : (core.hooks?.points.claudeStop() ?? core.childStop?.claude);
  return { status: failure ? "error" : result.status, fields: { text: result.text, usage, cost, turns: result.turns, apiMs: result.apiMs, error: failure ?? result.error, ...(hookStop ? { hookStop } : {}) } };
}

/** The turn's checkpoint event, when the turn changed something through a tool. */
async function checkpointEnd(core: SessionCore): Promise<void> {
  const report = await core.checkpoints?.end();
  if (report) core.emit({ type: "checkpoint", ...report });
}

/**
 * `--max-cost` across a lead's runs: while background workers of an earlier run still go (or their
 * notifications wait), a new run (the terminal, the server or ACP woken to answer them) shares that
 * run's spending with them, so the cap holds for the lead and its team together; once the team is
 * quiet, or the cap has stopped a run, the next run starts from $0.
 */
function teamSpend(core: SessionCore): RunSpend | undefined {
  const spend = core.teamSpend;
  core.teamSpend = undefined;
  return spend && core.options.team?.current?.busy(core.id) ? spend : undefined;
}

/** After every run: the lease let go, the run's state reset, its grants dropped; mail that came after its last turn wakes the session again. */
function endRun(core: SessionCore, grantsBefore: number): void {
  core.lease.release();
  core.inRun = false;
  core.saveError = undefined;
  core.runUsage = emptyUsage();
  core.childSpend = noChildSpend();
  // Workers started by this run keep adding to its spending: a later run of this lead carries it on.
  // Once the cap stopped a run, the team's budget has done its work: the person's next prompt starts from $0.
  const capped = core.options.maxCost !== undefined && core.runSpend.spent !== null && core.runSpend.spent >= core.options.maxCost;
  if (!core.options.spend && !capped && core.options.team?.current?.busy(core.id)) core.teamSpend = core.runSpend;
  core.runSpend = { spent: 0 };
  core.childStop = undefined;
  core.hooks?.rest();
  core.options.skills?.grants.splice(grantsBefore);
  if (core.options.team?.current?.pendingMail(core.id)) queueMicrotask(() => core.wakeUp());
  core.letGo();
}
