// JSON-RPC 2.0 over newline-delimited JSON, ACP's stdio transport: the client's requests and
// notifications to handlers, and rein's own requests to the client with their answers. rein's
// rather than the SDK's connection: importing @agentclientprotocol/sdk builds some 600 zod schemas
// at start-up (60-150 ms in the compiled binary, as long as a whole print-mode run), so the agent
// side uses only the SDK's types; its client side drives the tests. Params are checked with valibot
// where the handlers read them (wire.ts).

/** A failure the peer gets as a JSON-RPC error: ACP's codes (-32000 auth required, -32002 not found) and JSON-RPC's. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const CODES = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, authRequired: -32000, notFound: -32002 } as const;

export type Handlers = {
  requests: Record<string, (params: unknown) => unknown>;
  notifications: Record<string, (params: unknown) => void>;
};

export type Peer = {
  request: (method: string, params: unknown, signal?: AbortSignal) => Promise<unknown>;
  notify: (method: string, params: unknown) => void;
};

type Message = { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: { code?: number; message?: string; data?: unknown } };
type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** Serves `handlers` on the lines of `input` until it ends; `peer` is known before the first line is read. */
export function rpcConnection(input: ReadableStream<Uint8Array>, write: (line: string) => void, handlers: Handlers): { peer: Peer; closed: Promise<void> } {
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let open = true;
  // The lines of one tick go out in one write (a session/load replays a whole conversation at once).
  let queued: string[] = [];
  const flush = () => {
    const lines = queued.join("");
    queued = [];
    write(lines);
  };
  const send = (message: Record<string, unknown>) => {
    if (!open) return;
    if (queued.length === 0) queueMicrotask(flush);
    queued.push(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  };
  const peer: Peer = {
    notify: (method, params) => send({ method, params }),
    request: (method, params, signal) =>
      new Promise((resolve, reject) => {
        if (!open) return reject(new RpcError(CODES.internal, "the client has closed the connection"));
        const id = nextId++;
        pending.set(id, { resolve, reject });
        signal?.addEventListener(
          "abort",
          () => {
            if (!pending.delete(id)) return;
            send({ method: "$/cancel_request", params: { requestId: id } });
            reject(new RpcError(-32800, "cancelled"));
          },
          { once: true },
        );
        send({ id, method, params });
      }),
  };

  const answer = async (id: unknown, method: string, params: unknown) => {
    const handler = handlers.requests[method];
    if (!handler) return send({ id, error: { code: CODES.methodNotFound, message: `Method not found: ${method}` } });
    try {
      send({ id, result: (await handler(params)) ?? null });
    } catch (error) {
      const known = error instanceof RpcError ? error : new RpcError(CODES.internal, error instanceof Error ? error.message : String(error));
      send({ id, error: { code: known.code, message: known.message, ...(known.data !== undefined ? { data: known.data } : {}) } });
    }
  };

  const receive = (line: string) => {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      return send({ id: null, error: { code: CODES.parse, message: "Parse error: the line is not JSON" } });
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      return send({ id: null, error: { code: CODES.invalidRequest, message: "Invalid request: not a JSON-RPC object" } });
    }
    if (typeof message.method === "string") {
      if (message.id === undefined) return void handlers.notifications[message.method]?.(message.params);
      return void answer(message.id, message.method, message.params);
    }
    const waiting = typeof message.id === "number" ? pending.get(message.id) : undefined;
    if (!waiting) return;
    pending.delete(message.id as number);
    if (message.error) waiting.reject(new RpcError(message.error.code ?? CODES.internal, message.error.message ?? "the client failed the request", message.error.data));
    else waiting.resolve(message.result);
  };

  const closed = (async () => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of input) {
      const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = lines.pop()!;
      for (const line of lines) if (line.trim()) receive(line);
    }
    if (rest.trim()) receive(rest);
    open = false;
    for (const waiting of pending.values()) waiting.reject(new RpcError(CODES.internal, "the client has closed the connection"));
    pending.clear();
  })();
  return { peer, closed };
}
