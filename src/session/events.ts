// The event and message vocabulary front ends read, re-exported so they depend on the session only.
export type { AgentEvent, ContentBlock, ResultStatus, StampedEvent, Usage } from "../agent/types.ts";
