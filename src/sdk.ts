// The public tool API: the only rein module that tools/ and user tools import (as `rein/tool`).
import * as v from "valibot";
import type { GenericSchema, InferOutput } from "valibot";

/** What one tool call touches, in the permission engine's terms. */
export type PermissionRequest = {
  /** `bash`, `edit`, `read`, `external_directory`, `webfetch`, or a tool's own name */
  permission: string;
  /** the thing touched: a simple command, a path, a URL */
  pattern: string;
  /** the generalised patterns an "always" answer would save */
  always: string[];
  /** true when the pattern could not be resolved statically: only a bare `*` rule may allow it */
  opaque?: boolean;
};

/** One message of the session's full history, as plain text, by its position (0 = the first). */
export type HistoryEntry = { index: number; role: "user" | "assistant"; text: string };

/** The session's whole conversation as stored, including what compaction removed from the model's view. */
export type SessionHistory = {
  count: () => number;
  read: (from: number, to: number) => HistoryEntry[];
  search: (query: string, limit: number) => HistoryEntry[];
};

/** What a tool remembers of a file it read, to tell later whether the file changed since. */
export type FileStamp = { mtimeMs: number; size: number; /** sha-256 of the content, for files small enough to hash */ hash?: string };

/** The session's memory of the files the model has read (absolute paths). */
export type FileMemory = {
  recordRead: (path: string, stamp: FileStamp) => void;
  lastRead: (path: string) => FileStamp | undefined;
};

/** How the kernel sandbox applies to the commands this call runs: the session's setting and why the call was allowed. */
export type SandboxPolicy = {
  /** for a call a person or a rule allowed: on (never unsandboxed), off, or auto (on where bubblewrap works) */
  mode: "on" | "off" | "auto";
  /** whether that sandbox lets the network through */
  network: boolean;
  /**
   * the call was allowed without asking only because the analysis found it read-only: where
   * bubblewrap works it runs with nothing writable, the masked paths hidden and no network
   */
  readOnly: boolean;
  /** absolute paths a sandboxed run cannot read: credentials and rein's own secrets, for a read-only run the workspace's .env files too */
  masked: readonly string[];
};

/**
 * How read, write and edit reach a file's text: the disk by default; under `rein acp`, the editor's
 * buffers (unsaved changes included) when it offers them. Whether a file exists, its kind and its
 * size still come from the disk.
 */
export type FileAccess = {
  /** the file's text in order, in pieces (the disk streams it; an editor sends its buffer whole) */
  readText: (path: string, signal?: AbortSignal) => AsyncIterable<string>;
  /** replaces the file's whole text, creating the file (its folder exists) */
  writeText: (path: string, content: string) => Promise<void>;
};

export type ToolContext = {
  cwd: string;
  signal: AbortSignal;
  sessionId: string;
  toolUseId: string;
  /** streams a chunk of output to whoever watches the session */
  output: (chunk: string) => void;
  /** files read in this session (edit requires a fresh read) */
  files: FileMemory;
  /** where read, write and edit get and put a file's text */
  fileAccess: FileAccess;
  /** a folder (kept with the session, in rein's data folder) where a tool may save a large output in full */
  outputDir: string;
  /** the session's full stored history (absent where there is no store) */
  history?: SessionHistory;
  /** the environment for any process the tool starts: rein's and other credentials removed */
  env: Readonly<Record<string, string>>;
  sandbox: SandboxPolicy;
};

/** Why `bytes` are not an image a model takes as `mediaType` (undefined when they are); the checks load with the first image. */
export function imageProblem(mediaType: string, bytes: Uint8Array): string | undefined {
  return (require("./sdk/image-check.ts") as typeof import("./sdk/image-check.ts")).imageProblem(mediaType, bytes);
}
export { envFile } from "./sdk/env-file.ts";
export { diskFiles, readAllText } from "./sdk/disk-files.ts";
export { pinnedAddresses } from "./sdk/web-address.ts";

/** An image the model should see (it reaches models that accept images, inside the tool result). */
export type ToolImage = { mediaType: string; base64: string };

export type ToolResult =
  | string
  | { output: string; isError?: boolean; metadata?: Record<string, unknown>; images?: ToolImage[] };

export type ToolSpec<S extends GenericSchema> = {
  name: string;
  description: string;
  input: S;
  run: (input: InferOutput<S>, ctx: ToolContext) => Promise<ToolResult> | ToolResult;
  permissions?: (input: InferOutput<S>, ctx: Pick<ToolContext, "cwd">) => PermissionRequest[];
  /** why the call cannot run, found before anyone is asked to allow it (a write to a file the model has not read); undefined when it can */
  check?: (input: InferOutput<S>, ctx: CheckContext) => Promise<string | undefined> | string | undefined;
  readOnly?: boolean;
};

/** What a tool's `check` may look at: no output, no signal, nothing that runs. */
export type CheckContext = Pick<ToolContext, "cwd" | "files" | "fileAccess">;

/** A tool as the loop holds it, its input type erased. */
export type Tool = {
  name: string;
  description: string;
  input: GenericSchema;
  /** plain JSON Schema the model reads instead of one made from `input` (see defineJsonTool) */
  inputSchema?: Record<string, unknown>;
  run: (input: unknown, ctx: ToolContext) => Promise<ToolResult> | ToolResult;
  permissions?: (input: unknown, ctx: Pick<ToolContext, "cwd">) => PermissionRequest[];
  check?: (input: unknown, ctx: CheckContext) => Promise<string | undefined> | string | undefined;
  readOnly?: boolean;
};

/** Identity helper: gives a tool file types without a framework. */
export function defineTool<S extends GenericSchema>(spec: ToolSpec<S>): Tool {
  return spec as unknown as Tool;
}

/** A tool whose input is described by plain JSON Schema (an MCP server's, a generated one): no valibot needed. */
export type JsonToolSpec = {
  name: string;
  description: string;
  /** a JSON Schema of `type: "object"` */
  inputSchema: Record<string, unknown>;
  run: (input: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult> | ToolResult;
  permissions?: (input: Record<string, unknown>, ctx: Pick<ToolContext, "cwd">) => PermissionRequest[];
  readOnly?: boolean;
};

const ANY_OBJECT = v.record(v.string(), v.unknown());

/** A tool from a JSON Schema: rein checks only that the input is an object; the schema is what the model reads. */
export function defineJsonTool(spec: JsonToolSpec): Tool {
  return { ...spec, input: ANY_OBJECT } as unknown as Tool;
}
