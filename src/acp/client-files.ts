// The editor's file system as rein's file access: when the client offers `fs/read_text_file` and
// `fs/write_text_file`, read, write and edit see and change its buffers (unsaved edits included);
// what it does not offer stays on the disk. Bound to the ACP session the editor knows, so the
// subagents of that session go through the same buffers.
import type * as acp from "@agentclientprotocol/sdk";
import { diskFiles, type FileAccess } from "../sdk.ts";
import type { Peer } from "./rpc.ts";
import { ANSWERS, answerOf } from "./wire.ts";

type Offered = { fs?: { readTextFile?: boolean; writeTextFile?: boolean } };

export function clientFiles(client: Peer, offered: Offered | undefined, sessionId: () => string): FileAccess | undefined {
  const fs = offered?.fs;
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  return {
    readText: fs.readTextFile
      ? async function* (path, signal) {
          const request: acp.ReadTextFileRequest = { sessionId: sessionId(), path };
          yield answerOf(ANSWERS.readTextFile, await client.request("fs/read_text_file", request, signal)).content;
        }
      : diskFiles.readText,
    writeText: fs.writeTextFile
      ? async (path, content) => {
          const request: acp.WriteTextFileRequest = { sessionId: sessionId(), path, content };
          await client.request("fs/write_text_file", request);
        }
      : diskFiles.writeText,
  };
}
