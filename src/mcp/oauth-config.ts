// A remote server's `oauth` entry: a client registered beforehand (`clientId`, and `clientSecret`
// for a confidential client), the scopes to ask for, and a fixed `callbackPort` for a client whose
// redirect URI names one. Without `clientId` rein registers itself (RFC 7591). `false` turns the
// login off: a 401 from that server is then an ordinary error.
import * as v from "valibot";

const Settings = v.object(
  {
    clientId: v.optional(v.pipe(v.string("expected oauth.clientId to be a string"), v.minLength(1, "expected oauth.clientId to be a client id"))),
    clientSecret: v.optional(v.string("expected oauth.clientSecret to be a string")),
    scopes: v.optional(
      v.union([v.string(), v.array(v.string())], "expected oauth.scopes to be a string of space-separated scopes or a list of scopes"),
    ),
    callbackPort: v.optional(
      v.pipe(v.number("expected oauth.callbackPort to be a port number"), v.integer(), v.minValue(1, "expected oauth.callbackPort in 1-65535"), v.maxValue(65535, "expected oauth.callbackPort in 1-65535")),
    ),
  },
  "expected oauth to be an object { clientId?, clientSecret?, scopes?, callbackPort? } or false",
);

// Picked by the value, so a wrong field is named rather than the whole union refused.
export const OAuthSchema = v.lazy((input) => (input === false ? v.literal(false) : Settings));

export type OAuthSettings = v.InferOutput<typeof Settings>;

/** The configured scopes as the one space-separated string the authorization request takes. */
export function scopeOf(settings: OAuthSettings | false | undefined): string | undefined {
  const scopes = settings ? settings.scopes : undefined;
  const joined = Array.isArray(scopes) ? scopes.join(" ") : scopes;
  return joined?.trim() || undefined;
}
