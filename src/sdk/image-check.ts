// Whether image bytes are an image a model provider will take: the signature of the media type, a
// structure that holds together to its end (PNG chunks with their checksums and a pixel stream that
// inflates to the size the header says; JPEG segments up to a frame, a scan and its end; GIF blocks
// to the trailer; WebP's RIFF chunks and bitstream header), and dimensions within what is accepted.
import type * as Zlib from "node:zlib";

// node:zlib is loaded with the first PNG checked: importing it costs every start several ms.
let zlib: typeof Zlib | undefined;
const lazyZlib = (): typeof Zlib => (zlib ??= require("node:zlib") as typeof Zlib);

/** Providers refuse images wider or taller than this. */
const MAX_SIDE = 8000;
/** Pixel streams bigger than this are not inflated to check them (their structure still is). */
const MAX_INFLATE_BYTES = 64 * 1024 * 1024;

/** Why these bytes are not a usable image of `mediaType`; undefined when they are. */
export function imageProblem(mediaType: string, bytes: Uint8Array): string | undefined {
  const check = CHECKS[mediaType];
  if (!check) return `${mediaType} is not an image type models take (PNG, JPEG, GIF or WebP)`;
  if (bytes.length === 0) return "the file is empty";
  try {
    const problem = check(bytes);
    if (problem) return problem;
  } catch (error) {
    return `it cannot be decoded (${error instanceof Error ? error.message : String(error)})`;
  }
  return undefined;
}

type Check = (b: Uint8Array) => string | undefined;

const CHECKS: Record<string, Check> = {
  "image/png": png,
  "image/jpeg": jpeg,
  "image/gif": gif,
  "image/webp": webp,
};

const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const le16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const le24 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const le32 = (b: Uint8Array, at: number) => (le16(b, at) | (le16(b, at + 2) << 16)) >>> 0;
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

function sides(width: number, height: number): string | undefined {
  if (width === 0 || height === 0) return "its width or height is 0";
  if (width > MAX_SIDE || height > MAX_SIDE) return `it is ${width}x${height} pixels, over the ${MAX_SIDE} pixel limit of a side`;
  return undefined;
}

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function png(b: Uint8Array): string | undefined {
  if (b.length < 8 || b[0] !== 0x89 || ascii(b, 1, 4) !== "PNG" || u32(b, 4) !== 0x0d0a1a0a) return "it does not start with the PNG signature";
  let at = 8;
  let header: { width: number; height: number; depth: number; channels: number; interlaced: boolean } | undefined;
  const idat: Uint8Array[] = [];
  for (;;) {
    if (at + 12 > b.length) return "it ends before its last chunk (IEND): the file is cut short";
    const length = u32(b, at);
    const type = ascii(b, at + 4, at + 8);
    if (at + 12 + length > b.length) return `its ${type} chunk runs past the end of the file: the file is cut short`;
    const data = b.subarray(at + 8, at + 8 + length);
    if (lazyZlib().crc32(b.subarray(at + 4, at + 8 + length)) !== u32(b, at + 8 + length)) return `its ${type} chunk is damaged (checksum mismatch)`;
    if (!header && type !== "IHDR") return "its first chunk is not IHDR";
    if (type === "IHDR") {
      const channels = PNG_CHANNELS[data[9]!];
      if (length !== 13 || channels === undefined) return "its IHDR header is invalid";
      header = { width: u32(data, 0), height: u32(data, 4), depth: data[8]!, channels, interlaced: data[12] === 1 };
      const wrong = sides(header.width, header.height);
      if (wrong) return wrong;
    }
    if (type === "IDAT") idat.push(data);
    at += 12 + length;
    if (type === "IEND") break;
  }
  if (idat.length === 0) return "it has no pixel data (IDAT)";
  const h = header!;
  const row = (width: number) => 1 + Math.ceil((width * h.depth * h.channels) / 8);
  const expected = h.interlaced ? undefined : h.height * row(h.width);
  if (expected !== undefined && expected > MAX_INFLATE_BYTES) return undefined;
  const pixels = inflated(Buffer.concat(idat), expected);
  if (pixels === undefined) return `its pixel data holds more than the ${expected} bytes expected`;
  if (expected !== undefined && pixels.length !== expected) return `its pixel data holds ${pixels.length} bytes where ${expected} were expected`;
  return undefined;
}

/** The inflated stream; undefined when it holds more than `expected` bytes (inflating stops there). */
function inflated(stream: Buffer, expected: number | undefined): Buffer | undefined {
  try {
    return lazyZlib().inflateSync(stream, expected === undefined ? {} : { maxOutputLength: expected + 1 });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return undefined;
    throw error;
  }
}

const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Uint8Array): string | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return "it does not start with the JPEG signature";
  let at = 2;
  let frame = false;
  for (;;) {
    while (at < b.length && b[at] === 0xff && b[at + 1] === 0xff) at++; // fill bytes
    if (at + 4 > b.length) return "it ends before its image data: the file is cut short";
    if (b[at] !== 0xff) return `it has no segment marker at byte ${at}`;
    const marker = b[at + 1]!;
    if (marker === 0xd9) return "it ends before its image data";
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = u16(b, at + 2);
    if (length < 2 || at + 2 + length > b.length) return "a segment runs past the end of the file: the file is cut short";
    if (SOF.has(marker)) {
      if (length < 8) return "its frame header is invalid";
      const wrong = sides(u16(b, at + 7), u16(b, at + 5));
      if (wrong) return wrong;
      frame = true;
    }
    at += 2 + length;
    if (marker === 0xda) break;
  }
  if (!frame) return "it has no frame header (SOF) before its image data";
  // The scans run to the end-of-image marker; anything after it is ignored by decoders.
  for (let i = at; i + 1 < b.length; i++) if (b[i] === 0xff && b[i + 1] === 0xd9) return undefined;
  return "it has no end-of-image marker: the file is cut short";
}

function gif(b: Uint8Array): string | undefined {
  if (b.length < 13 || !/^GIF8[79]a$/.test(ascii(b, 0, 6))) return "it does not start with the GIF signature";
  const wrong = sides(le16(b, 6), le16(b, 8));
  if (wrong) return wrong;
  let at = 13 + (b[10]! & 0x80 ? 3 * 2 ** ((b[10]! & 7) + 1) : 0);
  let images = 0;
  const subBlocks = () => {
    for (;;) {
      if (at >= b.length) return false;
      const size = b[at]!;
      at += 1 + size;
      if (size === 0) return true;
    }
  };
  for (;;) {
    if (at >= b.length) return "it ends before its trailer: the file is cut short";
    const kind = b[at]!;
    if (kind === 0x3b) return images > 0 ? undefined : "it holds no image";
    if (kind === 0x21) {
      at += 2;
      if (!subBlocks()) return "an extension block runs past the end of the file";
    } else if (kind === 0x2c) {
      if (at + 10 > b.length) return "an image descriptor runs past the end of the file";
      const flags = b[at + 9]!;
      at += 10 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0) + 1; // the local colour table, the LZW code size
      if (!subBlocks()) return "its image data runs past the end of the file";
      images++;
    } else {
      return `it has an unknown block (0x${kind.toString(16)}) at byte ${at}`;
    }
  }
}

function webp(b: Uint8Array): string | undefined {
  if (b.length < 20 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 12) !== "WEBP") return "it does not start with the WebP signature";
  const end = 8 + le32(b, 4);
  if (end > b.length) return "its RIFF size is past the end of the file: the file is cut short";
  let at = 12;
  let canvas = false;
  while (at + 8 <= end) {
    const type = ascii(b, at, at + 4);
    const size = le32(b, at + 4);
    const data = b.subarray(at + 8, at + 8 + size);
    if (at + 8 + size > end) return `its ${type.trim()} chunk runs past the end of the file`;
    if (type === "VP8X") {
      if (size < 10) return "its VP8X header is invalid";
      const wrong = sides(le24(data, 4) + 1, le24(data, 7) + 1);
      if (wrong) return wrong;
      canvas = true;
    }
    if (type === "VP8 ") {
      if (size < 10 || data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) return "its VP8 bitstream header is invalid";
      return canvas ? undefined : sides(le16(data, 6) & 0x3fff, le16(data, 8) & 0x3fff);
    }
    if (type === "VP8L") {
      if (size < 5 || data[0] !== 0x2f) return "its VP8L bitstream header is invalid";
      const bits = le32(data, 1);
      return canvas ? undefined : sides((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    if (type === "ANIM" && canvas) return undefined;
    at += 8 + size + (size % 2);
  }
  return "it has no image bitstream (VP8, VP8L or an animation)";
}
