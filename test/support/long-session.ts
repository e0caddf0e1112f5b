// A session that grows far past its window: `turns` turns, each a tool call returning a few KB,
// against the fake model (which answers the hidden compaction call with a summary). Shared by the
// compaction test and the bench.
import { join } from "node:path";
import * as v from "valibot";
import type { EventOf } from "../../src/agent/types.ts";
import { defineTool } from "../../src/sdk.ts";
import { Session, type SessionOptions } from "../../src/session/session.ts";
import { Store } from "../../src/session/store.ts";
import { startFakeAnthropic, type FakeServer, type FakeStep } from "../fake/server.ts";
import { eventLog, type EventLog } from "./event-log.ts";
import { testSessionOptions } from "./session-kit.ts";
import { tempDir, type TempDir } from "./temp-dir.ts";

export type LongSession = {
  fake: FakeServer;
  store: Store;
  session: Session;
  log: EventLog;
  options: SessionOptions;
  /** runs the prompt to the end: `turns` tool turns, then a last answer */
  run: () => ReturnType<Session["prompt"]>;
  /** a resumed run: the fake answers at once */
  resume: (prompt: string) => ReturnType<Session["prompt"]>;
  compactions: () => EventOf<"compaction">[];
  close: () => Promise<void>;
};

export async function longSession(turns: number, contextWindow: number): Promise<LongSession> {
  let calls = 0;
  const respond = (body: { system?: { text: string }[] }): FakeStep => {
    if (body.system?.[0]?.text.includes("working memory")) {
      return { reply: [{ type: "text", text: `Summary after ${calls} calls: reading the file part by part, ${turns} parts in all.` }] };
    }
    calls++;
    if (calls > turns) return { reply: [{ type: "text", text: "Read them all." }] };
    return { reply: [{ type: "text", text: `Reading part ${calls}.` }, { type: "tool_use", name: "read", input: { part: calls } }] };
  };
  const fake = await startFakeAnthropic({ repeat: { respond } });
  const dir: TempDir = tempDir("rein-long-session-");
  const { store } = Store.open(join(dir.path, "rein.db"));
  const read = defineTool({
    name: "read",
    description: "Reads one part of a long file",
    input: v.object({ part: v.number() }),
    readOnly: true,
    run: (input) => `part ${input.part}\n${`line of part ${input.part} `.repeat(160)}`,
  });
  const options: SessionOptions = {
    ...testSessionOptions({ store, baseURL: fake.url, dataDir: dir.path, tools: [read], maxTurns: turns + 5 }),
    contextWindow,
  };
  const session = Session.create(dir.path, options);
  const log = eventLog(session);
  return {
    fake,
    store,
    session,
    log,
    options,
    run: () => session.prompt("Read every part of the file, one a turn."),
    resume: (prompt) => {
      calls = turns;
      return Session.open(store.getSession(session.id)!, options).prompt(prompt);
    },
    compactions: () => log.of("compaction"),
    close: async () => {
      await fake.close();
      store.close();
      dir.remove();
    },
  };
}

export type CompactionFigures = {
  turns: number;
  contextWindow: number;
  compactions: Record<string, number>;
  /** the largest request after the first compaction, over the context window (body characters / 4) */
  maxShareAfterFirst: number;
  /** tokens sent over the whole session (body characters / 4, the summary calls included) */
  sentTokens: number;
  /** the same session sending its full history every turn (estimated; it would not fit the window) */
  uncompactedTokens: number;
};

/** The bench's figures for a long session: how close to the window it gets, and what it sends. */
export async function compactionFigures(turns = 300, contextWindow = 40_000): Promise<CompactionFigures> {
  const long = await longSession(turns, contextWindow);
  try {
    let firstAt: number | undefined;
    long.session.subscribe((event) => {
      if (event.type === "compaction" && firstAt === undefined) firstAt = long.fake.requests.length;
    });
    const result = await long.run();
    if (result.status !== "success") throw new Error(`the long session ended ${result.status}: ${result.error}`);
    const sizes = long.fake.requests.map((r) => r.bodyText.length / 4);
    const after = sizes.slice(firstAt ?? sizes.length);
    const full = long.store.messages(long.session.id).map(({ role, content }) => ({ role, content }));
    const perMessage = full.map((m) => JSON.stringify(m).length / 4);
    const preamble = sizes[0]! - perMessage[0]!;
    let uncompacted = 0;
    let prefix = 0;
    for (let i = 0; i < full.length; i++) {
      prefix += perMessage[i]!;
      if (full[i]!.role === "user") uncompacted += preamble + prefix;
    }
    const compactions: Record<string, number> = {};
    for (const c of long.compactions()) compactions[c.method] = (compactions[c.method] ?? 0) + 1;
    return {
      turns,
      contextWindow,
      compactions,
      maxShareAfterFirst: Math.max(0, ...after) / contextWindow,
      sentTokens: Math.round(sizes.reduce((a, b) => a + b, 0)),
      uncompactedTokens: Math.round(uncompacted),
    };
  } finally {
    await long.close();
  }
}
