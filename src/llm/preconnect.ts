const preconnected = new Set<string>();

/**
 * Opens the connection to an API (DNS, TCP, TLS) while rein still starts up: the first request
 * then finds it in fetch's keep-alive pool. Best effort; a failure shows in the request itself.
 * With HTTP(S)_PROXY set, Bun's fetch opens nothing ahead (tested): the request uses the proxy.
 */
export function preconnect(baseURL: string): void {
  // Once per API per process: a server creating many sessions needs no more than the pool keeps.
  if (preconnected.has(baseURL)) return;
  preconnected.add(baseURL);
  try {
    fetch.preconnect(baseURL);
  } catch {
    // an invalid URL fails the request with its own message
  }
}
