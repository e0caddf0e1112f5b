// Which addresses a web fetch may reach without a second look. Loopback, link-local, private and
// other non-public ranges (IPv4, IPv6, and IPv4 inside IPv6: mapped, NAT64, 6to4) are "private":
// webfetch asks for them in every mode unless a rule names the host. The cloud metadata addresses
// hand out the machine's credentials: "metadata", denied. The permission engine resolves a name
// once, judges the addresses and pins them here; webfetch connects to the pinned addresses only,
// so a name that answers differently a moment later (DNS rebinding) cannot lead elsewhere.
import type * as Net from "node:net";

// node:net loads the streams with it (about 7 ms at start): taken when an address is first judged.
let net: typeof Net | undefined;
const lazyNet = (): typeof Net => (net ??= require("node:net") as typeof Net);

export type AddressKind = "public" | "private" | "metadata";

const METADATA_V4 = new Set(["169.254.169.254", "169.254.170.2", "169.254.169.253", "100.100.100.200", "192.0.0.192"]);
/** [first address, prefix length] of the IPv4 ranges that are not the public internet. */
const PRIVATE_V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15],
  ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
];

/** What an IP address is (v4 or v6, brackets allowed); undefined for a name. */
export function addressKind(address: string): AddressKind | undefined {
  const ip = address.replace(/^\[|\]$/g, "");
  const { isIPv4, isIPv6 } = lazyNet();
  if (isIPv4(ip)) return v4Kind(v4Number(ip));
  if (isIPv6(ip)) return v6Kind(v6Words(ip));
  return undefined;
}

/** The worst of several addresses' kinds (metadata, then private, then public). */
export function worstKind(addresses: readonly string[]): AddressKind {
  const kinds = addresses.map((a) => addressKind(a) ?? "private");
  return kinds.includes("metadata") ? "metadata" : kinds.includes("private") ? "private" : "public";
}

/** `localhost` and its subdomains are loopback by definition, whatever a resolver says. */
export function loopbackName(host: string): boolean {
  return /^(?:.+\.)?localhost\.?$/i.test(host);
}

// The addresses the permission check judged, by host name (lower case); bounded, oldest out first.
const pinned = new Map<string, readonly string[]>();
const MAX_PINNED = 512;

/** Called by the permission check: the addresses it judged for `host` (empty: it could not resolve it). */
export function pinAddresses(host: string, addresses: readonly string[]): void {
  const key = host.toLowerCase();
  pinned.delete(key);
  pinned.set(key, addresses);
  if (pinned.size > MAX_PINNED) pinned.delete(pinned.keys().next().value!);
}

/** The addresses the permission check judged for `host`, or undefined when no check looked at it. */
export function pinnedAddresses(host: string): readonly string[] | undefined {
  return pinned.get(host.toLowerCase());
}

function v4Number(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Kind(n: number): AddressKind {
  const dotted = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
  if (METADATA_V4.has(dotted)) return "metadata";
  const inRange = ([base, bits]: readonly [string, number]) => (bits === 0 ? true : n >>> (32 - bits) === v4Number(base) >>> (32 - bits));
  if (PRIVATE_V4.some(inRange) || dotted === "255.255.255.255") return "private";
  return "public";
}

/** The eight 16-bit words of an IPv6 address (an IPv4 tail included). */
function v6Words(ip: string): number[] {
  let text = ip.toLowerCase().replace(/%.*$/, "");
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4) {
    const n = v4Number(v4);
    text = `${text.slice(0, -v4.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail !== undefined && tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((w) => parseInt(w, 16) || 0);
}

function v6Kind(w: number[]): AddressKind {
  const v4At = (hi: number, lo: number) => v4Kind(((w[hi]! << 16) | w[lo]!) >>> 0);
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  // fd00:ec2::254, the EC2 metadata service over IPv6
  if (w[0] === 0xfd00 && w[1] === 0x0ec2 && zeros(2, 7) && w[7] === 0x254) return "metadata";
  if (zeros(0, 8) || (zeros(0, 7) && w[7] === 1)) return "private"; // :: and ::1
  if (zeros(0, 5) && w[5] === 0xffff) return v4At(6, 7); // ::ffff:a.b.c.d
  if (zeros(0, 6)) return v4At(6, 7); // ::a.b.c.d (deprecated compatible form)
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return v4At(6, 7); // NAT64
  if (w[0] === 0x2002) return v4At(1, 2); // 6to4
  const first = w[0]!;
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0 || (first & 0xff00) === 0xff00) return "private";
  if (first === 0x2001 && w[1] === 0x0db8) return "private"; // documentation
  if (first === 0x100 && zeros(1, 4)) return "private"; // discard-only
  return "public";
}
