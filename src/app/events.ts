// The event and message vocabulary front ends read, re-exported so they depend on the session only.
export type { AgentEvent, ContentBlock, EventOf, ResultStatus, StampedEvent, ToolResultBlock, Usage } from "../agent/types.ts";
