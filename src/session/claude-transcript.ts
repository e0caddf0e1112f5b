// The transcript hooks from Claude Code's files read at `transcript_path`: the session in Claude
// Code's JSONL (test/fixtures/claude-code/recorded/*/transcript-final.jsonl): a `user` line for the
// prompt, an `assistant` line per content block (tool_use blocks with Claude Code's names and input
// fields), a `user` line per tool result with its structured `toolUseResult`, each with `uuid`,
// `parentUuid`, `sessionId`, `timestamp`. Written as the session's events come, one whole line at a
// time, so a hook reading it mid-run sees everything up to the call it fires for.
import { claudeContent, claudeInputOf, claudeResponse } from "../hooks/dialect.ts";
import { VERSION } from "../version.ts";
import type { StampedEvent } from "../agent/types.ts";
import { TranscriptFile } from "./transcript-file.ts";

export class ClaudeTranscript {
  private readonly file: TranscriptFile;
  private parent: string | null = null;
  private promptId = "";
  /** tool_use id -> the assistant line that holds it, and its input in rein's fields */
  private readonly calls = new Map<string, { uuid: string; name: string; input: unknown }>();

  constructor(
    readonly path: string,
    /** `sidechain`: a subagent's transcript (Claude Code's `isSidechain`) */
    private readonly session: { id: string; cwd: string; entrypoint: string; permissionMode: string; sidechain?: boolean },
  ) {
    this.file = new TranscriptFile(path);
  }

  record(event: StampedEvent): void {
    if (event.parent_tool_use_id) return; // a subagent's events are in its own transcript
    switch (event.type) {
      case "user":
        this.promptId = crypto.randomUUID();
        this.line({ promptId: this.promptId, type: "user", message: { role: "user", content: event.text }, permissionMode: this.session.permissionMode });
        return;
      case "assistant": {
        const id = `msg_${event.session_id}_${event.seq}`;
        for (const block of claudeContent(event.content, this.session.cwd)) {
          const uuid = this.line({ message: { id, type: "message", role: "assistant", model: event.model, content: [block], stop_reason: event.stop_reason, stop_sequence: null, usage: event.usage }, type: "assistant" });
          if (block.type === "tool_use") {
            const original = event.content.find((b) => b.type === "tool_use" && b.id === block.id) as { name?: string; input?: unknown } | undefined;
            this.calls.set(String(block.id), { uuid, name: String(original?.name ?? block.name), input: original?.input });
          }
        }
        return;
      }
      case "tool_end": {
        const call = this.calls.get(event.id);
        this.calls.delete(event.id);
        const input = call ? claudeInputOf(call.name, call.input, this.session.cwd) : {};
        const toolUseResult = event.is_error ? `Error: ${event.output}` : claudeResponse(event.name, input, { output: event.output, isError: false, ...(event.metadata ? { metadata: event.metadata } : {}) });
        const result = { tool_use_id: event.id, type: "tool_result", content: event.output, is_error: event.is_error };
        this.line({ promptId: this.promptId, type: "user", message: { role: "user", content: [result] }, toolUseResult, ...(call ? { sourceToolAssistantUUID: call.uuid } : {}) });
        return;
      }
    }
  }

  rest(): void {
    this.file.rest();
  }

  private line(fields: Record<string, unknown>): string {
    const uuid = crypto.randomUUID();
    const { id, cwd, entrypoint } = this.session;
    this.file.append({ parentUuid: this.parent, isSidechain: this.session.sidechain === true, ...fields, uuid, timestamp: new Date().toISOString(), userType: "external", entrypoint, cwd, sessionId: id, version: VERSION });
    this.parent = uuid;
    return uuid;
  }
}
