// The editor's file system as rein's file access: when the client offers `fs/read_text_file` and
// `fs/write_text_file`, read, write and edit see and change its buffers (unsaved edits included);
// what it does not offer stays on the disk. Bound to the ACP session the editor knows, so the
// subagents of that session go through the same buffers.
import * as acp from "@agentclientprotocol/sdk";
import { diskFiles, type FileAccess } from "../sdk.ts";

export function clientFiles(client: acp.AgentContext, offered: acp.ClientCapabilities | undefined, sessionId: () => string): FileAccess | undefined {
  const fs = offered?.fs;
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  return {
    readText: fs.readTextFile
      ? async function* (path, signal) {
          const { content } = await client.request(acp.methods.client.fs.readTextFile, { sessionId: sessionId(), path }, signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined);
          yield content;
        }
      : diskFiles.readText,
    writeText: fs.writeTextFile
      ? async (path, content) => {
          await client.request(acp.methods.client.fs.writeTextFile, { sessionId: sessionId(), path, content });
        }
      : diskFiles.writeText,
  };
}
