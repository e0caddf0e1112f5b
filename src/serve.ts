// `rein --serve`: part of the composition root. Resolves the token and the address, builds the
// Hono app over a session hub, hands it to Bun.serve, and shuts down cleanly (exit 0) on SIGTERM, SIGINT or SIGHUP.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Args } from "./app/args.ts";
import { UsageError } from "./app/args.ts";
import { startupWarnings, openStore, resolveContext, runSettings, type Context, type Env } from "./app/context.ts";
import { KnownFault } from "./app/known-fault.ts";
import { out, warn } from "./app/output.ts";
import { formatLoadError } from "./app/load-errors.ts";
import { createApp } from "./server/app.ts";
import { ApiError } from "./server/errors.ts";
import { SessionHub, storedParams, type SessionParams } from "./server/hub.ts";
import { serverHosts } from "./server/hosts.ts";
import { OPENAPI } from "./server/openapi.ts";
import { PAGE_HTML } from "./server/page.ts";
import { DEFAULT_AGENT, instructionSources, instructionWarnings, providerListing, sessionOptions, toolRegistry } from "./app/factory.ts";
import type { Session } from "./session/session.ts";
import type { Store } from "./session/store.ts";
import { VERSION } from "./version.ts";
import { projectPaths } from "./config/paths.ts";
import { saveAllowRules } from "./config/save-rules.ts";
import { alwaysRules } from "./session/broker.ts";
import { stopBackgroundCommands } from "./app/stop-background.ts";
import { readOwnText } from "./sdk/own-file.ts";

export const DEFAULT_PORT = 4774;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;

export async function serve(args: Args, env: Env): Promise<number> {
  const ctx = resolveContext(args, env);
  startupWarnings(ctx, warn);
  const settings = runSettings(ctx); // fails early (exit 2) when there is no API key
  for (const cut of instructionWarnings(instructionSources(settings))) warn(cut);
  const store = openStore(ctx, warn);
  // The handlers come before the URL is printed: a client may signal as soon as it reads it.
  let server: RunningServer | undefined;
  let signalled = false;
  const stopped = new Promise<void>((done) => {
    const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
    const stop = () => {
      for (const signal of signals) process.off(signal, stop);
      signalled = true;
      void (server?.stop() ?? Promise.resolve()).then(done);
    };
    for (const signal of signals) process.on(signal, stop);
  });
  server = startServer(args, env, ctx, store);
  if (signalled) await server.stop();
  await stopped;
  await stopBackgroundCommands(warn);
  store.close();
  return 0;
}

/** `tokenNote` says where the bearer token comes from (the config or a generated file). */
export type RunningServer = { url: string; tokenNote: string; hub: SessionHub; stop: () => Promise<void> };

/** Starts the HTTP server over a hub of sessions; prints its URL on stdout. */
export function startServer(args: Args, env: Env, ctx: Context, store: Store, live?: Session): RunningServer {
  const hostname = args.hostname ?? "127.0.0.1";
  if (!LOOPBACK.test(hostname) && !ctx.config.server.token) {
    throw new UsageError(`refusing to listen on ${hostname} without a configured token: set REIN_SERVER_TOKEN or server.token in the user config`);
  }
  const heartbeatMs = milliseconds("REIN_SSE_HEARTBEAT_MS", env.REIN_SSE_HEARTBEAT_MS, 15_000, 100, 3_600_000);
  const idleMs = milliseconds("REIN_SERVE_IDLE_MS", env.REIN_SERVE_IDLE_MS, 30 * 60_000, 1_000, 7 * 24 * 3_600_000);
  const token = ctx.config.server.token ?? generatedToken(join(ctx.paths.dataDir, "server-token"));
  const hub = new SessionHub({
    store,
    optionsFor: (params) => {
      const run = contextFor(args, env, params);
      try {
        return { cwd: run.cwd, options: optionsOf(run, store) };
      } catch (error) {
        // An unknown `agent` is the request's fault, said as the command line would say it.
        if (error instanceof UsageError && params.agent) throw new ApiError("bad_request", `"agent": ${error.message}`);
        throw error;
      }
    },
    optionsForStored: (row) => optionsOf(contextFor(args, env, { ...storedParams(row.settings), cwd: row.cwd, model: row.model }), store),
    saveAlways: (row, scope, requests) => {
      const run = contextFor(args, env, { cwd: row.cwd });
      if (scope === "project" && !run.trusted) {
        throw new ApiError("bad_request", `"scope": ${run.projectRoot} is not a trusted workspace, so its project config cannot take rules; answer with scope "session" or "user"`);
      }
      const file = scope === "project" ? projectPaths(run.projectRoot).config : run.paths.userConfig;
      saveAllowRules(file, alwaysRules(requests));
      return file;
    },
    trusted: (row) => contextFor(args, env, { cwd: row.cwd }).trusted,
    idleMs,
  });
  if (live) hub.adopt(live);
  let hosts: string[] = [];
  let listening: Bun.Server<undefined> | undefined;
  const app = createApp({
    hub,
    token,
    origins: ctx.config.server.origins,
    hosts: () => hosts,
    version: VERSION,
    openapi: OPENAPI,
    page: PAGE_HTML,
    heartbeatMs,
    keepOpen: (request) => listening?.timeout(request, 0),
    clientOf: (request) => listening?.requestIP(request)?.address,
    catalog: {
      // as the terminal's /agents and rein models list them, for the configuration of that folder
      agents: (cwd) => {
        const settings = asApiError(() => runSettings(contextFor(args, env, cwd === undefined ? {} : { cwd }), { warn }));
        const chosen = settings.agents?.name ?? DEFAULT_AGENT;
        return (settings.agents?.list ?? []).map((a) => ({ name: a.name, mode: a.mode, description: a.description, source: a.source, default: a.name === chosen }));
      },
      models: (cwd) => {
        const run = contextFor(args, env, cwd === undefined ? {} : { cwd });
        const providers = providerListing(run.config, run.env);
        return typeof providers === "string" ? providers : { model: run.config.model, providers };
      },
    },
  });
  // Idle connections (a request stalled in its head) are closed after 30 s; streams lift it.
  const server = listen(() => Bun.serve({ hostname, port: args.port ?? DEFAULT_PORT, fetch: app.fetch, idleTimeout: 30 }), hostname, args.port ?? DEFAULT_PORT);
  listening = server;
  hosts = serverHosts(hostname, server.port ?? 0, ctx.config.server.hosts);
  const host = server.hostname ?? hostname;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${server.port}`;
  const tokenNote = `token: ${ctx.config.server.token ? "from your configuration" : join(ctx.paths.dataDir, "server-token")}`;
  // The terminal says where it serves in its own output (stderr would tear its live prompt).
  if (!live) {
    out(`${url}\n`);
    warn(`serving on ${url} (${tokenNote})`);
  }
  return {
    url,
    tokenNote,
    hub,
    stop: async () => {
      void server.stop();
      await hub.shutdown();
    },
  };
}

/** A configuration the command line would refuse (exit 2) is a 409 over HTTP, in the same words. */
function asApiError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof UsageError || error instanceof KnownFault) throw new ApiError("session_unavailable", error.message);
    throw error;
  }
}

/** Starts listening; an address that cannot be had is told in one line. */
function listen<T>(start: () => T, hostname: string, port: number): T {
  try {
    return start();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") {
      throw new KnownFault(`port ${port} on ${hostname} is already in use: stop what listens there, or choose another port with --port N (--port 0 picks a free one)`);
    }
    if (code === "EACCES") throw new KnownFault(`no permission to listen on port ${port} on ${hostname} (ports below 1024 need root): choose another with --port N`);
    if (code === "EADDRNOTAVAIL") throw new KnownFault(`cannot listen on ${hostname}: no network interface has that address; use --hostname 127.0.0.1`);
    throw error;
  }
}

/** A setting in whole milliseconds from `min` to `max`; `fallback` when unset. */
function milliseconds(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined || text === "") return fallback;
  const ms = Number(text);
  if (/^\s*\d+\s*$/.test(text) && ms >= min && ms <= max) return ms;
  throw new UsageError(`${name}: expected whole milliseconds from ${min} to ${max}, got ${JSON.stringify(text)}`);
}

/** The same resolution print mode does, for a session's own directory and overrides, in the API's words. */
function contextFor(args: Args, env: Env, params: SessionParams): Context {
  if (params.cwd !== undefined && !isDirectory(resolve(params.cwd))) throw new ApiError("bad_request", `"cwd": no such directory: ${params.cwd}`);
  return resolveContext(
    {
      ...args,
      ...(params.cwd ? { cwd: resolve(params.cwd) } : {}),
      ...(params.model ? { model: params.model } : {}),
      ...(params.permission_mode ? { permissionMode: params.permission_mode } : {}),
      ...(params.agent ? { agent: params.agent } : {}),
      allow: [...args.allow, ...(params.allow ?? [])],
      deny: [...args.deny, ...(params.deny ?? [])],
      ask: [...args.ask, ...(params.ask ?? [])],
    },
    env,
  );
}

function optionsOf(ctx: Context, store: Store) {
  const settings = runSettings(ctx, { warn });
  const registry = toolRegistry(settings.toolDirs, (errors) => warn(`tools not loaded:\n${errors.map(formatLoadError).join("\n")}`));
  // An idle session is woken by its workers' notifications (and asyncRewake hooks): the server stays up to show the turn.
  return { ...sessionOptions(settings, store, registry), wakeWhenIdle: true, titleCall: true };
}

/**
 * A token kept in the data folder (mode 0600): made once, reused by later starts. It is printed in
 * full only to a terminal; a stderr that is a pipe or a file (a service's log) gets the file's path.
 */
function generatedToken(file: string): string {
  if (existsSync(file)) {
    const saved = readOwnText(file).trim();
    if (saved.length >= 32) return saved;
  }
  const token = randomBytes(24).toString("hex");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // a file that was there already keeps its mode through writeFileSync
  warn(process.stderr.isTTY ? `generated a server token (saved in ${file}): ${token}` : `generated a server token: it is in ${file} (readable by you only)`);
  return token;
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
