// memory.auto: at the end of a session one model call reads what the user and the model said and
// proposes at most 3 durable facts; those not already kept and holding nothing like a secret are
// saved, each noting the session it came from. Bounded in time; every failure is one sentence.
import * as v from "valibot";
import extractPrompt from "../../prompts/memory-extract.txt" with { type: "text" };
import { textOf, type Message, type StreamFn } from "../agent/types.ts";
import { MEMORY_TYPES } from "./front-matter.ts";
import { secretIn } from "./secrets.ts";
import { listMemories, saveMemory, slug, type Memory, type MemoryDirs } from "./store.ts";

export const AUTO_MEMORY_MAX = 3;
/** the whole call, from the request to the last saved file */
export const AUTO_MEMORY_TIMEOUT_MS = 20_000;
/** the transcript's end that the call reads (characters) */
const TRANSCRIPT_CHARS = 40_000;

const Proposal = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(80)),
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200)), ""),
  type: v.optional(v.picklist(MEMORY_TYPES), "project"),
  text: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(2_000)),
});
const Reply = v.object({ memories: v.array(v.unknown()) });
type Proposed = v.InferOutput<typeof Proposal>;

export type AutoMemoryInput = {
  stream: StreamFn;
  model: string;
  messages: readonly Message[];
  dirs: MemoryDirs;
  sessionId: string;
  timeoutMs?: number;
  /** a person stopped waiting (Ctrl-C): the call ends, nothing more is written */
  signal?: AbortSignal;
  now?: Date;
};

/** What was saved, and why each other proposal was not; or why nothing could be proposed. */
export type AutoMemoryOutcome = { saved: Memory[]; skipped: string[] } | { error: string };

/** Never throws, and settles within the timeout even when the provider ignores the abort. */
export async function autoMemories(input: AutoMemoryInput): Promise<AutoMemoryOutcome> {
  const transcript = conversationText(input.messages);
  if (!transcript) return { saved: [], skipped: [] };
  const ms = input.timeoutMs ?? AUTO_MEMORY_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<AutoMemoryOutcome>((resolve) => {
    const end = (error: string) => (controller.abort(), resolve({ error }));
    timer = setTimeout(() => end(`no answer within ${ms / 1000} s`), ms);
    if (input.signal?.aborted) end("stopped");
    input.signal?.addEventListener("abort", () => end("stopped"), { once: true });
  });
  try {
    return await Promise.race([propose(input, transcript, controller.signal), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function propose(input: AutoMemoryInput, transcript: string, signal: AbortSignal): Promise<AutoMemoryOutcome> {
  try {
    const existing = listMemories(input.dirs).memories;
    const reply = await ask(input, transcript, existing, signal);
    if (typeof reply !== "string") return reply;
    const proposals = parseProposals(reply);
    if (typeof proposals === "string") return { error: proposals };
    return await keep(input, proposals, existing, signal);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The user's and the model's words, each turn on its own (tool calls and their outputs left out), the end kept. */
function conversationText(messages: readonly Message[]): string {
  const turns = messages.flatMap((m) => {
    const text = textOf(m.content, "\n").trim();
    return text ? [`${m.role === "user" ? "User" : "Assistant"}: ${text}`] : [];
  });
  const all = turns.join("\n\n");
  return all.length > TRANSCRIPT_CHARS ? `[earlier part left out]\n${all.slice(-TRANSCRIPT_CHARS)}` : all;
}

async function ask(input: AutoMemoryInput, transcript: string, existing: readonly Memory[], signal: AbortSignal): Promise<string | { error: string }> {
  const known = existing.length ? existing.map((m) => `- ${m.name}: ${m.description || m.text.split("\n")[0]}`).join("\n") : "(none)";
  const text = `Known memories:\n${known}\n\n<transcript>\n${transcript}\n</transcript>`;
  const request = { model: input.model, system: extractPrompt.trim(), messages: [{ role: "user" as const, content: [{ type: "text" as const, text }] }], tools: [], max_tokens: 1_024 };
  for await (const event of input.stream(request, signal)) {
    if (event.type === "error") return { error: event.message };
    if (event.type === "done") return textOf(event.content, "\n");
  }
  return { error: "the reply ended before it was complete" };
}

/** The proposals in the reply (JSON, perhaps in a code fence); the first 3 that are well formed. */
export function parseProposals(reply: string): Proposed[] | string {
  const body = /\{[\s\S]*\}/.exec(reply.replace(/```(?:json)?/g, ""))?.[0];
  let json: unknown;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  const parsed = v.safeParse(Reply, json);
  if (!parsed.success) return "the reply was not the JSON asked for";
  return parsed.output.memories.flatMap((m) => {
    const one = v.safeParse(Proposal, m);
    return one.success ? [one.output] : [];
  }).slice(0, AUTO_MEMORY_MAX);
}

async function keep(input: AutoMemoryInput, proposals: readonly Proposed[], existing: readonly Memory[], signal: AbortSignal): Promise<AutoMemoryOutcome> {
  const saved: Memory[] = [];
  const skipped: string[] = [];
  const source = `memory.auto, session ${input.sessionId}`;
  for (const p of proposals) {
    if (signal.aborted) break;
    const secret = secretIn(`${p.name}\n${p.description}\n${p.text}`);
    if (secret) {
      skipped.push(`${p.name}: it holds what looks like a secret (${secret})`);
      continue;
    }
    const twin = [...existing, ...saved].find((m) => sameMemory(m, p));
    if (twin) {
      skipped.push(`${p.name}: already kept as ${twin.name}`);
      continue;
    }
    const scope = p.type === "user" ? "user" : "project";
    const result = await saveMemory(input.dirs, scope, { ...p, source }, input.now);
    if (typeof result === "string") skipped.push(`${p.name}: ${result}`);
    else saved.push(result);
  }
  return { saved, skipped };
}

/** The same name, or the same text give or take case, spacing and punctuation (one holding the other counts). */
function sameMemory(memory: Pick<Memory, "name" | "text">, proposed: Proposed): boolean {
  if (slug(memory.name) === slug(proposed.name)) return true;
  const a = words(memory.text);
  const b = words(proposed.text);
  return a === b || (Math.min(a.length, b.length) >= 20 && (a.includes(b) || b.includes(a)));
}

function words(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}
