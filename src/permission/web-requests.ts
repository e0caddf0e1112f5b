// A webfetch request as the rules see it: the URL's host is resolved once, here, and judged by its
// addresses, not its name (sdk/web-address.ts). A metadata address is denied; a loopback, link-local
// or private one asks in every mode unless a rule names the host (`webfetch(http://127.0.0.1:8080/*)`).
// The addresses judged are pinned for webfetch to connect to, so the name cannot answer otherwise
// between this check and the connection.
import { lookup } from "node:dns/promises";
import { addressKind, loopbackName, pinAddresses, worstKind } from "../sdk/web-address.ts";
import type { PermissionRequest } from "./evaluate.ts";

const LOOKUP_TIMEOUT_MS = 5_000;

export async function webRequest(request: PermissionRequest): Promise<PermissionRequest> {
  const url = parsed(request.pattern);
  if (!url) return request;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = await addressesOf(host);
  pinAddresses(host, addresses);
  if (addresses.length === 0) return request; // webfetch will not connect to what no check judged
  const kind = worstKind(addresses);
  const where = addressKind(host) ? host : `${host} (${addresses.join(", ")})`;
  if (kind === "metadata") {
    return { ...request, fixed: { action: "deny", reason: `${where} is a cloud metadata address, which hands out the machine's credentials; protected in every permission mode` } };
  }
  if (kind === "private") {
    return {
      ...request,
      fixed: { action: "ask", reason: `${where} is a loopback, link-local or private address, which asks in every mode unless a rule names the host (webfetch(${url.origin}/*))`, host },
    };
  }
  return request;
}

async function addressesOf(host: string): Promise<string[]> {
  if (addressKind(host)) return [host];
  if (loopbackName(host)) return ["127.0.0.1", "::1"];
  const timeout = new Promise<never[]>((resolve) => setTimeout(() => resolve([]), LOOKUP_TIMEOUT_MS).unref?.());
  const found = lookup(host, { all: true, verbatim: true }).then((list) => list.map((a) => a.address), () => []);
  return Promise.race([found, timeout]);
}

function parsed(raw: string): URL | undefined {
  try {
    const url = new URL(raw.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}
