// `rein doctor`'s probe of the configured language servers, apart from the factory: a run loads none of it.
export { probeServers } from "../lsp/probe.ts";
