export type FakeUsage = {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
};

export type FakeBlock =
  | { type: "text"; text: string }
  /** `id` defaults to a generated "toolu_fake_N". */
  | { type: "tool_use"; name: string; input: unknown; id?: string }
  | { type: "thinking"; thinking: string; signature?: string }
  /** Anthropic's server tools: a search the API ran (its input streams as JSON), and its results (sent whole). */
  | { type: "server_tool_use"; name: string; input: unknown; id?: string }
  | { type: "web_search_tool_result"; tool_use_id: string; content: unknown };

/** A normal answer: SSE for `stream: true` requests, one JSON Message otherwise (or when `json`). */
export type FakeReplyStep = {
  reply: FakeBlock[];
  /** Defaults to "tool_use" when the reply has a tool_use block, else "end_turn". */
  stopReason?: string;
  usage?: FakeUsage;
  /** Characters per text_delta / thinking_delta / input_json_delta (default 16). */
  chunkSize?: number;
  /** Wait between SSE events. */
  delayMs?: number;
  json?: boolean;
  /** Answers only once this settles (a test holds a run mid-request while it starts others). */
  waitFor?: Promise<unknown>;
};

export type FakeStep =
  | FakeReplyStep
  /** HTTP error; the body defaults to the Anthropic error shape for the status. */
  | { error: number; body?: unknown; retryAfter?: number; headers?: Record<string, string> }
  /** Streams the reply, then drops the connection after `afterEvents` SSE events (default: after the first content delta). */
  | { cut: FakeBlock[]; afterEvents?: number }
  /** Streams the blocks; a trailing tool_use gets half its JSON and no content_block_stop; stop_reason "max_tokens". */
  | { maxTokensCut: FakeBlock[] }
  /** 200 + message_start (+ a text delta) then silence until the client leaves or the server closes. */
  | { hang: true; afterText?: string }
  /** 200 text/event-stream with a body that is neither SSE nor JSON. */
  | { malformed: true }
  | { raw: (req: Request) => Response | Promise<Response> }
  /** Chooses the step from the request's parsed body (a long scripted session that also makes hidden calls). */
  | { respond: (body: any) => FakeStep };

export type RecordedRequest = {
  method: string;
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when not JSON). `any` so tests can reach into it without casts. */
  body: any;
  bodyText: string;
  /** performance.now() in the fake's process when the request's headers arrived (before its body was read and parsed) */
  arrivedAt: number;
};

export type FakeServer = {
  /** e.g. "http://127.0.0.1:40123": use as ANTHROPIC_BASE_URL / the SDK's baseURL. */
  url: string;
  /** Appends steps to the queue; each POST /v1/messages consumes one. */
  script(...steps: FakeStep[]): void;
  /** Every request, in order, including the ones answered with errors; not the title calls. */
  requests: RecordedRequest[];
  /**
   * The hidden calls that name a session after its first turn (src/session/title.ts), told apart by
   * their system prompt: answered with `fakeTitle(first prompt)` on their own, consuming no step, so scripts
   * stay as they are.
   */
  titleRequests: RecordedRequest[];
  /** Steps not yet consumed. */
  pending(): number;
  /** Clears the queue, the recorded requests and the id counters. */
  reset(): void;
  /** Stops the server, dropping hanging and slow streams. */
  close(): Promise<void>;
};

export type FakeServerOptions = {
  port?: number;
  /** Answered whenever the queue is empty (benchmarks: "always answer ok"). */
  repeat?: FakeStep;
  /** Check each request as the Messages API does (see strict.ts): one it would refuse gets its 400 and consumes no step. */
  strict?: boolean;
};
