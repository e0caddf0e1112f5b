// The Host header values a server answers to: the loopback names, the address it is bound to (for a
// wildcard bind, every address of the machine's interfaces) and the names configured in
// server.hosts, each with the port (and bare on port 80, as browsers send it).
import { networkInterfaces } from "node:os";

const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);

export function serverHosts(hostname: string, port: number, configured: readonly string[]): string[] {
  const bound = WILDCARD.has(hostname) ? interfaceAddresses() : [hostname];
  const names = ["127.0.0.1", "localhost", "::1", ...bound, ...configured].map((h) => bracketed(h.toLowerCase()));
  const withPort = names.map((h) => `${h}:${port}`);
  return [...new Set(port === 80 ? [...withPort, ...names] : withPort)];
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.replace(/%.*$/, "")));
}

function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
