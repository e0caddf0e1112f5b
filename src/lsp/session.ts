// The language-server part of a session, cheap until used: the configuration is checked at start,
// but the client library and the hub load with the first file of a configured language (an edit,
// a write, an lsp call). A session whose configuration names no server has none of this.
import type { AfterToolCall, ToolCallDone } from "../agent/types.ts";
import type { Tool } from "../sdk.ts";
import { afterEdit } from "./after-edit.ts";
import { serverFor, type LspServerConfig } from "./config.ts";
import type { LspHub, LspHubOptions } from "./hub.ts";
import { serverState, type ServerState } from "./state.ts";
import { lspTool } from "./lsp-tool.ts";

export type LspSession = {
  afterToolCall: (call: ToolCallDone) => Promise<AfterToolCall | undefined>;
  tool: Tool;
  status: () => ServerState[];
  close: () => void;
};

/** The whole wait of one edit's diagnostics, start-up included. */
export const LSP_WAIT_MS = 10_000;

export function lspSession(opts: Omit<LspHubOptions, "waitMs"> & { cwd: string; waitMs?: number }): LspSession | undefined {
  if (!opts.configs.length) return undefined;
  const waitMs = opts.waitMs ?? LSP_WAIT_MS;
  let hub: Promise<LspHub> | undefined;
  let loaded: LspHub | undefined;
  const getHub = () => (hub ??= import("./hub.ts").then(({ LspHub }) => (loaded = new LspHub({ ...opts, waitMs }))));
  const after = afterEdit(opts.root, opts.cwd, waitMs);
  const handles = (file: string) => serverFor(opts.configs, file) !== undefined;
  return {
    afterToolCall(call) {
      // With no server running, no file a server has open can have changed.
      if (call.name === "bash" && !loaded) return Promise.resolve(undefined);
      return after(call, getHub, handles);
    },
    tool: lspTool(getHub, opts.root, waitMs),
    status: () => loaded?.status() ?? opts.configs.map((c) => serverState(c)),
    close: () => loaded?.close(),
  };
}

export type { LspServerConfig };
