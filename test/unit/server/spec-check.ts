// Checks real answers against the OpenAPI document with an independent JSON Schema validator (Ajv,
// draft 2020-12, the dialect of OpenAPI 3.1): the route tests send every response through it.
import { Ajv2020 } from "ajv/dist/2020.js";
import type { StampedEvent } from "../../../src/agent/types.ts";
import { OPENAPI } from "../../../src/server/openapi.ts";

type Media = { schema?: unknown };
type Operation = { responses: Record<string, { content?: Record<string, Media> }> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(JSON.parse(JSON.stringify(OPENAPI)), "openapi");
const eventSchema = ajv.compile({ $ref: "openapi#/components/schemas/Event" });

/** The operation of the document that serves `method path` (path templates matched segment by segment). */
function operationOf(method: string, path: string): Operation {
  const paths = OPENAPI.paths as Record<string, Record<string, Operation>>;
  for (const [template, item] of Object.entries(paths)) {
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`);
    const op = item[method.toLowerCase() === "head" ? "get" : method.toLowerCase()];
    if (pattern.test(path) && op) return op;
  }
  throw new Error(`the spec has no operation for ${method} ${path}`);
}

/**
 * Throws unless the spec documents this answer: its status for the operation, its content type, and
 * (for JSON) a body that validates against the schema. Returns the parsed JSON body, if any.
 */
export async function checkResponse(method: string, url: string, res: Response): Promise<unknown> {
  const path = new URL(url, "http://x").pathname;
  // Outside any operation: a wrong method (405), and CORS preflights (answered 204, or refused with an error).
  const preflight = method === "OPTIONS" && res.status === 204;
  if (preflight) return undefined;
  if (res.status === 405 || method === "OPTIONS") return expectValid(`${method} ${path} ${res.status}`, await res.clone().json(), "#/components/schemas/Error");
  const op = operationOf(method, path);
  const documented = op.responses[String(res.status)];
  if (!documented) throw new Error(`${method} ${path} answered ${res.status}, which the spec does not list (it lists ${Object.keys(op.responses).join(", ")})`);
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
  if (!documented.content) {
    if (method !== "HEAD" && res.body && (await res.clone().text()) !== "") throw new Error(`${method} ${path} ${res.status}: the spec says no body`);
    return undefined;
  }
  if (!(type in documented.content)) throw new Error(`${method} ${path} ${res.status}: content type ${type}, the spec has ${Object.keys(documented.content).join(", ")}`);
  if (type !== "application/json" || method === "HEAD") return undefined;
  return expectValid(`${method} ${path} ${res.status}`, await res.clone().json(), documented.content[type]!.schema);
}

export function checkEvent(event: StampedEvent): void {
  if (!eventSchema(event)) throw new Error(`event ${JSON.stringify(event).slice(0, 200)} fails the spec: ${ajv.errorsText(eventSchema.errors)}`);
}

const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

function expectValid(where: string, body: unknown, schema: unknown): unknown {
  const key = JSON.stringify(schema);
  const validate = compiled.get(key) ?? ajv.compile(typeof schema === "string" ? { $ref: `openapi${schema}` } : rebase(schema));
  compiled.set(key, validate);
  if (!validate(body)) throw new Error(`${where}: the body fails the spec: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  return body;
}

/** An inline schema's local $refs point into the document. */
function rebase(schema: unknown): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi#/')) as object;
}
