// Run as a child process by the crash tests: one session prompt against the fake server, printing
// each event as a JSON line once it is stored, until the parent kills it.
// argv: dbPath baseURL dataDir prompt
import * as v from "valibot";
import { defineTool } from "../../src/sdk.ts";
import { Session } from "../../src/session/session.ts";
import { Store } from "../../src/session/store.ts";
import { testSessionOptions } from "./session-kit.ts";

const [dbPath, baseURL, dataDir, prompt] = process.argv.slice(2) as [string, string, string, string];

/** Returns at once. */
export const quick = defineTool({ name: "quick", description: "Answers at once", input: v.object({}), run: () => "quick done" });
/** Never returns (until aborted): the process is killed while it runs. */
export const stall = defineTool({
  name: "stall",
  description: "Never finishes",
  input: v.object({}),
  run: (_input, ctx) => new Promise<string>((resolve) => ctx.signal.addEventListener("abort", () => resolve("aborted"))),
});

if (import.meta.main) {
  const { store } = Store.open(dbPath);
  const session = Session.create(dataDir, testSessionOptions({ store, baseURL, dataDir, tools: [quick, stall], maxTurns: 100 }));
  session.subscribe((event) => process.stdout.write(`${JSON.stringify(event)}\n`));
  await session.prompt(prompt);
}
