// Undo, redo and the checkpoints of a session over HTTP: the same as rein undo, rein redo and
// rein checkpoints list (docs/undo.md). Refused (409) while the session runs a prompt.
import type { Hono } from "hono";
import * as v from "valibot";
import { redoTurns, sessionCheckpoints, undoTurns } from "../session/undo.ts";
import { jsonBody, type BodyLimits } from "./body.ts";
import { ApiError } from "./errors.ts";
import type { SessionHub } from "./hub.ts";

const Undo = v.strictObject({
  turns: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  part: v.optional(v.picklist(["both", "code", "conversation"])),
  force: v.optional(v.boolean()),
});
const Redo = v.strictObject({ force: v.optional(v.boolean()) });

export function undoRoutes(app: Hono, hub: SessionHub, body: BodyLimits): void {
  app.get("/sessions/:id/checkpoints", (c) => {
    const { session } = hub.idle(c.req.param("id"), false);
    return c.json({ checkpoints: session.checkpointsDir ? sessionCheckpoints(session.row, session.checkpointsDir) : [] });
  });
  app.post("/sessions/:id/undo", async (c) => {
    const { turns = 1, part = "both", force = false } = await jsonBody(c, Undo, body);
    const { session, store, checkpointsDir } = checkpointed(hub, c.req.param("id"));
    const report = await undoTurns(store, session.row, { checkpointsDir, turns, code: part !== "conversation", conversation: part !== "code", force });
    return c.json(report, report.type === "done" ? 200 : 409);
  });
  app.post("/sessions/:id/redo", async (c) => {
    const { force = false } = await jsonBody(c, Redo, body);
    const { session, store, checkpointsDir } = checkpointed(hub, c.req.param("id"));
    const report = await redoTurns(store, session.row, { checkpointsDir, force });
    return c.json(report, report.type === "done" ? 200 : 409);
  });
}

function checkpointed(hub: SessionHub, id: string) {
  const held = hub.idle(id, true);
  const checkpointsDir = held.session.checkpointsDir;
  if (!checkpointsDir) throw new ApiError("busy", "this session takes no checkpoints: there is nothing to undo");
  return { ...held, checkpointsDir };
}
