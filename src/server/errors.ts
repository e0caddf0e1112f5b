// Every error the API answers, by code: one table for the app, the OpenAPI document and the docs.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden_origin: 403,
  forbidden_host: 403,
  not_found: 404,
  method_not_allowed: 405,
  timeout: 408,
  busy: 409,
  already_answered: 409,
  session_unavailable: 409,
  too_large: 413,
  too_many_requests: 429,
  internal: 500,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A failure with its API code; thrown anywhere below a route, answered by the app's error handler. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function fail(c: Context, code: ErrorCode, message: string, headers?: Record<string, string>): Response {
  return c.json({ error: { code, message } }, ERROR_STATUS[code], headers);
}
