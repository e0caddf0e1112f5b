// What a client needs to start a session as the command line would: the agents (rein's /agents)
// and the providers and models (rein models) of a folder's configuration, and a fork of a session
// (rein sessions fork). The composition root supplies the catalog from the same functions the CLI
// uses (app/factory.ts); the fork is the store's, as rein sessions fork makes it.
import type { Context, Hono } from "hono";
import * as v from "valibot";
import type { ProviderListing } from "../app/factory.ts";
import { jsonBody, type BodyLimits } from "./body.ts";
import { ApiError } from "./errors.ts";
import type { SessionHub } from "./hub.ts";

export type AgentView = { name: string; mode: string; description: string; source: string; default: boolean };
export type Catalog = {
  /** the agents of the configuration of `cwd` (the server's folder when absent) */
  agents(cwd: string | undefined): AgentView[];
  /** the model in use and the providers with their models, or why the providers config is wrong */
  models(cwd: string | undefined): { model: string; providers: ProviderListing[] } | string;
};

const Fork = v.strictObject({ at: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))) });

export function catalogRoutes(app: Hono, hub: SessionHub, body: BodyLimits, catalog: Catalog | undefined): void {
  app.get("/agents", (c) => c.json({ agents: need(catalog).agents(cwdOf(c)) }));
  app.get("/models", (c) => {
    const listed = need(catalog).models(cwdOf(c));
    if (typeof listed === "string") throw new ApiError("session_unavailable", listed);
    return c.json(listed);
  });
  app.post("/sessions/:id/fork", async (c) => {
    const { at } = await jsonBody(c, Fork, body);
    return c.json(hub.fork(c.req.param("id"), at), 201);
  });
}

function cwdOf(c: Context): string | undefined {
  const cwd = c.req.query("cwd");
  if (cwd === "") throw new ApiError("bad_request", `"cwd": an empty folder; leave it out for the server's own`);
  return cwd;
}

function need(catalog: Catalog | undefined): Catalog {
  if (!catalog) throw new ApiError("not_found", "this server lists no agents or models");
  return catalog;
}
