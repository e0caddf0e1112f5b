// A request body read under two bounds, size and time, then parsed at the boundary with valibot.
// A client that stalls after its headers (or trickles its body) gets a 408 instead of holding a
// request open for ever.
import type { Context } from "hono";
import * as v from "valibot";
import { ApiError } from "./errors.ts";

export type BodyLimits = { maxBytes: number; timeoutMs: number };

export async function readBody(c: Context, limits: BodyLimits): Promise<string> {
  const declared = Number(c.req.header("content-length") ?? NaN);
  if (declared > limits.maxBytes) throw tooLarge(limits);
  const body = c.req.raw.body;
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError("timeout", `the body did not arrive within ${limits.timeoutMs / 1000} s; send it whole and at once`)), limits.timeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBytes) throw tooLarge(limits);
      chunks.push(value);
    }
  } catch (error) {
    void reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** The body as JSON, validated; an empty body is `{}`. A failure names the field that was wrong. */
export async function jsonBody<T extends v.GenericSchema>(c: Context, schema: T, limits: BodyLimits): Promise<v.InferOutput<T>> {
  const text = await readBody(c, limits);
  let json: unknown;
  try {
    json = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "the body is not valid JSON");
  }
  // valibot's strictObject takes an array with no elements for an object with no keys.
  if (Array.isArray(json)) throw new ApiError("bad_request", "the body must be a JSON object, not an array");
  const parsed = v.safeParse(schema, json);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const path = issue ? v.getDotPath(issue) : null;
  throw new ApiError("bad_request", `${path ? `"${path}": ` : ""}${issue?.message ?? "invalid body"}`);
}

function tooLarge(limits: BodyLimits): ApiError {
  return new ApiError("too_large", `the body is over ${limits.maxBytes} bytes`);
}
