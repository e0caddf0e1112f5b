// The loopback redirect target of a login (RFC 8252 section 7.3): listens on 127.0.0.1 only, on
// a random port unless one is configured, takes one request to /callback, checks its state, and
// closes. A state that does not match ends the login: it is not this login's answer.
import { LoginError } from "./oauth-discover.ts";
import { messageOf } from "./message.ts";

export type Callback = {
  redirectUri: string;
  /** the authorization code, once the browser comes back with it */
  code: Promise<string>;
  /** stops listening (after the answer to the one request went out) */
  close: () => Promise<void>;
};

export function listenForCode(state: string, opts: { port?: number; timeoutMs: number; name: string }): Callback {
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  code.catch(() => {}); // awaited by the login once it has shown the URL
  // Bun.serve rather than node:http, which would add about 450 KB to the binary.
  let server: ReturnType<typeof Bun.serve>;
  let answered = false;
  try {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: opts.port ?? 0,
      fetch: (req) => {
        const url = new URL(req.url);
        if (url.pathname !== "/callback") return new Response("not found\n", { status: 404 });
        const outcome = answer(url.searchParams, state);
        if ("code" in outcome) settle.resolve(outcome.code);
        else settle.reject(new LoginError(outcome.error));
        clearTimeout(timer);
        answered = true;
        void server.stop(); // lets this answer go out, takes no other request
        const text = "code" in outcome ? `rein: logged in to MCP server "${opts.name}". You can close this tab.\n` : `rein: the login failed: ${outcome.error}\n`;
        return new Response(text, { status: "code" in outcome ? 200 : 400, headers: { "content-type": "text/plain; charset=utf-8", connection: "close" } });
      },
    });
  } catch (error) {
    throw new LoginError(`could not listen on 127.0.0.1:${opts.port ?? 0} for the login's answer (${messageOf(error)})`);
  }
  const timer = setTimeout(() => {
    settle.reject(new LoginError(`no answer came back to the login within ${opts.timeoutMs / 60_000} minutes: run rein mcp login ${opts.name} again`));
    void server.stop(true);
  }, opts.timeoutMs);
  const close = async () => {
    clearTimeout(timer);
    await server.stop(!answered);
  };
  return { redirectUri: `http://127.0.0.1:${server.port}/callback`, code, close };
}

function answer(query: URLSearchParams, state: string): { code: string } | { error: string } {
  if (query.get("state") !== state) return { error: "the answer's state does not match this login (a stale or forged redirect): nothing was saved" };
  const error = query.get("error");
  if (error) return { error: `the authorization server refused: ${error}${query.get("error_description") ? ` (${query.get("error_description")})` : ""}` };
  const code = query.get("code");
  return code ? { code } : { error: "the answer has no authorization code" };
}
