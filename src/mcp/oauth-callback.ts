// The loopback redirect target of a login (RFC 8252 section 7.3): listens on 127.0.0.1 only, on
// a random port unless one is configured, takes one request to /callback, checks its state, and
// closes. A state that does not match ends the login: it is not this login's answer.
import { createServer, type Server } from "node:http";
import { LoginError } from "./oauth-discover.ts";

export type Callback = {
  redirectUri: string;
  /** the authorization code, once the browser comes back with it */
  code: Promise<string>;
  close: () => void;
};

export async function listenForCode(state: string, opts: { port?: number; timeoutMs: number; name: string }): Promise<Callback> {
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  code.catch(() => {}); // awaited by the login once it has shown the URL
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      res.writeHead(404).end();
      return;
    }
    const outcome = answer(url.searchParams, state);
    res.writeHead("code" in outcome ? 200 : 400, { "content-type": "text/plain; charset=utf-8", connection: "close" });
    res.end("code" in outcome ? `rein: logged in to MCP server "${opts.name}". You can close this tab.\n` : `rein: the login failed: ${outcome.error}\n`);
    if ("code" in outcome) settle.resolve(outcome.code);
    else settle.reject(new LoginError(outcome.error));
    stop();
  });
  const timer = setTimeout(() => {
    settle.reject(new LoginError(`no answer came back to the login within ${opts.timeoutMs / 60_000} minutes: run rein mcp login ${opts.name} again`));
    stop();
  }, opts.timeoutMs);
  const stop = () => {
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
  };
  const port = await listen(server, opts.port ?? 0).catch((error: unknown) => {
    stop();
    throw new LoginError(`could not listen on 127.0.0.1:${opts.port ?? 0} for the login's answer (${error instanceof Error ? error.message : String(error)})`);
  });
  return { redirectUri: `http://127.0.0.1:${port}/callback`, code, close: stop };
}

function answer(query: URLSearchParams, state: string): { code: string } | { error: string } {
  if (query.get("state") !== state) return { error: "the answer's state does not match this login (a stale or forged redirect): nothing was saved" };
  const error = query.get("error");
  if (error) return { error: `the authorization server refused: ${error}${query.get("error_description") ? ` (${query.get("error_description")})` : ""}` };
  const code = query.get("code");
  return code ? { code } : { error: "the answer has no authorization code" };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}
