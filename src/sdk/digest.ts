// Hashes and random hex through Bun's own hasher and the Web Crypto RNG, not node:crypto: loading
// node:crypto costs a Bun 1.4 process about 6 MiB and 20 ms, more than the rest of a one-shot's
// own modules. The digests are the same bytes node:crypto gives.

type Algorithm = "sha1" | "sha256";

/** The hex digest of `data`. */
export function digestHex(algorithm: Algorithm, data: string | Uint8Array): string {
  return new Bun.CryptoHasher(algorithm).update(data).digest("hex");
}

/** A hasher fed piece by piece (`update`, then `digest("hex")`). */
export function hasher(algorithm: Algorithm): Bun.CryptoHasher {
  return new Bun.CryptoHasher(algorithm);
}

/** `bytes` random bytes from the system's CSPRNG, as hex. */
export function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}
