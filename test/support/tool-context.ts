// A real ToolContext for calling a tool's run() directly in a test: an abort controller, a file
// memory and the streamed output collected.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROVIDER_KEY_ENV } from "../../src/llm/provider-keys.ts";
import { childEnv } from "../../src/permission/child-env.ts";
import { diskFiles, type FileStamp, type ToolContext, type ToolResult } from "../../src/sdk.ts";

export type TestContext = ToolContext & { chunks: string[]; abort: () => void };

export function toolContext(cwd: string, overrides: Partial<ToolContext> = {}): TestContext {
  const controller = new AbortController();
  const stamps = new Map<string, FileStamp>();
  const chunks: string[] = [];
  return {
    cwd,
    signal: controller.signal,
    sessionId: "s_test",
    toolUseId: "toolu_test",
    output: (chunk) => void chunks.push(chunk),
    files: { recordRead: (path, stamp) => void stamps.set(path, stamp), lastRead: (path) => stamps.get(path) },
    fileAccess: diskFiles,
    outputDir: join(tmpdir(), `rein-tool-output-${process.pid}`),
    env: childEnv(process.env, { secrets: PROVIDER_KEY_ENV }),
    sandbox: { mode: "off", network: false, readOnly: false, masked: [] },
    chunks,
    abort: () => controller.abort(),
    ...overrides,
  };
}

/** A tool's result in one shape: a plain string is an output that is not an error. */
export function toolOutcome(result: ToolResult): { output: string; isError: boolean; metadata?: Record<string, unknown> } & Record<string, unknown> {
  return typeof result === "string" ? { output: result, isError: false, metadata: undefined } : { isError: false, ...result };
}
