// `rein acp`: an Agent Client Protocol v1 agent over a stream (stdio in production). Each ACP
// session is a rein Session (the same object the terminal, print mode and the server drive); its
// events become `session/update`s and its permission asks `session/request_permission`s (live.ts);
// the agent methods are answered by handlers.ts.
import * as v from "valibot";
import { requestHandlers } from "./handlers.ts";
import type { AcpDeps, AcpState } from "./live.ts";
import { rpcConnection } from "./rpc.ts";
import { PARAMS } from "./wire.ts";

/** Serves ACP on the lines of `input` until the client closes it; then aborts running prompts (kept, resumable) and settles. */
export async function serveAcp(deps: AcpDeps, input: ReadableStream<Uint8Array>, write: (line: string) => void): Promise<void> {
  const state: AcpState = { deps, live: new Map() };
  const notifications: Record<string, (params: unknown) => void> = {
    "session/cancel": (raw) => {
      const parsed = v.safeParse(PARAMS.cancel, raw);
      if (parsed.success) state.live.get(parsed.output.sessionId)?.session.abort();
    },
  };
  const connection = rpcConnection(input, write, { requests: requestHandlers(state), notifications });
  state.client = connection.peer;
  await connection.closed;
  // The client went away: stop what runs (the session keeps what was said so far) and wait for it to persist.
  const runs = [...state.live.values()].map((entry) => {
    entry.session.abort();
    entry.unsubscribe();
    return entry.run?.catch(() => undefined);
  });
  await Promise.all(runs);
  await Promise.all([...state.live.values()].map((entry) => entry.session.end("other").catch(() => undefined))); // SessionEnd hooks
}
