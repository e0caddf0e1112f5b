// The JSON Schema validator the SDK's client is given for tools' output schemas: it accepts what
// the server sent. rein checks nothing the model reads against a server's claims about its own
// output (a mismatch is the server's affair, and the model reads the content either way), and the
// SDK's default validator (ajv) would add about a third to the client's size in the binary:
// build.ts leaves it out, which only works because every client gets this one.
import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

export const ACCEPT_ANY: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** What build.ts puts where the SDK imports its ajv validator: never constructed, as every client gets ACCEPT_ANY. */
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error("rein's build leaves ajv out: give the MCP client ACCEPT_ANY (src/mcp/accept-any-schema.ts)");
  }
}
