// Undo, redo and the checkpoints of a session over HTTP: the same as rein undo, rein redo and
// rein checkpoints list, diff and restore (docs/undo.md). Refused (409) while the session runs a prompt.
import type { Hono } from "hono";
import * as v from "valibot";
import { redoTurns, restoreCheckpoint, sessionCheckpointPatch, sessionCheckpoints, undoTurns } from "../session/undo.ts";
import { jsonBody, type BodyLimits } from "./body.ts";
import { ApiError } from "./errors.ts";
import type { Session } from "../session/session.ts";
import type { SessionHub } from "./hub.ts";

const Undo = v.strictObject({
  turns: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  part: v.optional(v.picklist(["both", "code", "conversation"])),
  force: v.optional(v.boolean()),
});
const Redo = v.strictObject({ force: v.optional(v.boolean()) });
const Restore = Redo;

export function undoRoutes(app: Hono, hub: SessionHub, body: BodyLimits): void {
  app.get("/sessions/:id/checkpoints", (c) => {
    const { session } = hub.idle(c.req.param("id"), false);
    return c.json({ checkpoints: session.checkpointsDir ? sessionCheckpoints(session.row, session.checkpointsDir) : [] });
  });
  // as rein checkpoints diff N: the patch of what the turn changed, from the workspace before it
  app.get("/sessions/:id/checkpoints/:n/diff", async (c) => {
    const { session } = hub.idle(c.req.param("id"), false);
    const { dir, n } = checkpoint(session, c.req.param("n"));
    const patch = await sessionCheckpointPatch(session.row, dir, n);
    if (patch === undefined) throw new ApiError("busy", `checkpoint ${n} is incomplete: its turn did not finish, so what it changed is not known`);
    return c.json({ n, patch });
  });
  // as rein checkpoints restore N: the workspace as it was before checkpoint N (it and every later one undone)
  app.post("/sessions/:id/checkpoints/:n/restore", async (c) => {
    const { force = false } = await jsonBody(c, Restore, body);
    const { session, store, checkpointsDir } = checkpointed(hub, c.req.param("id"));
    const { n } = checkpoint(session, c.req.param("n"));
    const outcome = await restoreCheckpoint(store, session.row, checkpointsDir, n, force);
    session.showStored(); // its undo event reaches the open streams now, not at their next heartbeat
    return c.json(outcome, outcome.type === "done" ? 200 : 409);
  });
  app.post("/sessions/:id/undo", async (c) => {
    const { turns = 1, part = "both", force = false } = await jsonBody(c, Undo, body);
    const { session, store, checkpointsDir } = checkpointed(hub, c.req.param("id"));
    const report = await undoTurns(store, session.row, { checkpointsDir, turns, code: part !== "conversation", conversation: part !== "code", force });
    session.showStored();
    return c.json(report, report.type === "done" ? 200 : 409);
  });
  app.post("/sessions/:id/redo", async (c) => {
    const { force = false } = await jsonBody(c, Redo, body);
    const { session, store, checkpointsDir } = checkpointed(hub, c.req.param("id"));
    const report = await redoTurns(store, session.row, { checkpointsDir, force });
    session.showStored();
    return c.json(report, report.type === "done" ? 200 : 409);
  });
}

function checkpointed(hub: SessionHub, id: string) {
  const held = hub.idle(id, true);
  const checkpointsDir = held.session.checkpointsDir;
  if (!checkpointsDir) throw new ApiError("busy", "this session takes no checkpoints: there is nothing to undo");
  return { ...held, checkpointsDir };
}

/** Checkpoint `given` of the session, or a 404 naming what there is. */
function checkpoint(session: Session, given: string): { dir: string; n: number } {
  const n = Number(given);
  if (!/^\d+$/.test(given) || n < 1) throw new ApiError("bad_request", `a checkpoint number is a whole number from 1, got ${JSON.stringify(given)}`);
  const dir = session.checkpointsDir;
  if (!dir || !sessionCheckpoints(session.row, dir).some((c) => c.n === n)) throw new ApiError("not_found", `session ${session.id} has no checkpoint ${n} (GET /sessions/${session.id}/checkpoints lists them)`);
  return { dir, n };
}
