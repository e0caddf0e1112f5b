// imageProblem on images built byte by byte: what each format's structure must hold for a provider to
// take it (PNG chunks and their pixel stream, JPEG segments, GIF blocks, WebP chunks), and the size
// limits, each branch with the sentence it gives. The browser-made fixtures are covered by read's tests.
import { describe, expect, test } from "bun:test";
import { crc32, deflateSync } from "node:zlib";
import { imageProblem } from "../../../src/sdk/image-check.ts";

const be32 = (n: number) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const be16 = (n: number) => Buffer.from([(n >>> 8) & 255, n & 255]);
const le16 = (n: number) => Buffer.from([n & 255, (n >>> 8) & 255]);
const le24 = (n: number) => Buffer.from([n & 255, (n >>> 8) & 255, (n >>> 16) & 255]);
const le32 = (n: number) => Buffer.from([n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255]);

// ---- PNG

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function chunk(type: string, data: Buffer, damage = false): Buffer {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  return Buffer.concat([be32(data.length), body, be32((crc32(body) ^ (damage ? 1 : 0)) >>> 0)]);
}
function ihdr(width: number, height: number, colour = 2, interlace = 0): Buffer {
  return chunk("IHDR", Buffer.concat([be32(width), be32(height), Buffer.from([8, colour, 0, 0, interlace])]));
}
/** RGB rows of `width` pixels, each with its filter byte, deflated. */
function pixels(width: number, rows: number, channels = 3): Buffer {
  return deflateSync(Buffer.alloc(rows * (1 + width * channels), 0x40));
}
function png(width = 4, height = 3, extra: Partial<{ idat: Buffer[]; head: Buffer; colour: number; interlace: number }> = {}): Buffer {
  const idat = extra.idat ?? [chunk("IDAT", pixels(width, height))];
  return Buffer.concat([SIGNATURE, extra.head ?? ihdr(width, height, extra.colour, extra.interlace), ...idat, chunk("IEND", Buffer.alloc(0))]);
}

describe("PNG", () => {
  test("a well-formed image is usable, its pixel stream split over several IDAT chunks too", () => {
    expect(imageProblem("image/png", png())).toBeUndefined();
    const stream = pixels(4, 3);
    const split = [chunk("IDAT", stream.subarray(0, 5)), chunk("IDAT", stream.subarray(5))];
    expect(imageProblem("image/png", png(4, 3, { idat: split }))).toBeUndefined();
  });

  test("greyscale with alpha counts two channels per pixel", () => {
    const head = ihdr(5, 2, 4);
    expect(imageProblem("image/png", png(5, 2, { head, idat: [chunk("IDAT", pixels(5, 2, 2))] }))).toBeUndefined();
    // the RGB-sized stream is too long for two channels: said as such, not as a decoder's buffer error
    expect(imageProblem("image/png", png(5, 2, { head }))).toBe("its pixel data holds more than the 22 bytes expected");
  });

  test("a pixel stream shorter than the header's size says how many bytes it holds", () => {
    const short = png(4, 3, { idat: [chunk("IDAT", pixels(4, 2))] });
    expect(imageProblem("image/png", short)).toBe("its pixel data holds 26 bytes where 39 were expected");
  });

  test("an interlaced image is not measured against the plain size, only inflated", () => {
    expect(imageProblem("image/png", png(4, 3, { interlace: 1, idat: [chunk("IDAT", pixels(4, 7))] }))).toBeUndefined();
  });

  test("a pixel stream that is not deflate data cannot be decoded", () => {
    expect(imageProblem("image/png", png(4, 3, { idat: [chunk("IDAT", Buffer.from("not deflate"))] }))).toStartWith("it cannot be decoded (");
  });

  test("no IDAT at all is no pixel data", () => {
    expect(imageProblem("image/png", png(4, 3, { idat: [] }))).toBe("it has no pixel data (IDAT)");
  });

  test("the first chunk must be IHDR, and IHDR must be 13 bytes of a known colour type", () => {
    expect(imageProblem("image/png", Buffer.concat([SIGNATURE, chunk("tEXt", Buffer.from("a")), chunk("IEND", Buffer.alloc(0))]))).toBe("its first chunk is not IHDR");
    expect(imageProblem("image/png", png(4, 3, { head: ihdr(4, 3, 5) }))).toBe("its IHDR header is invalid");
    expect(imageProblem("image/png", png(4, 3, { head: chunk("IHDR", Buffer.alloc(12)) }))).toBe("its IHDR header is invalid");
  });

  test("a damaged checksum names the chunk", () => {
    const bad = Buffer.concat([SIGNATURE, ihdr(4, 3), chunk("IDAT", pixels(4, 3), true), chunk("IEND", Buffer.alloc(0))]);
    expect(imageProblem("image/png", bad)).toBe("its IDAT chunk is damaged (checksum mismatch)");
  });

  test("a chunk whose length runs past the end, and a file without IEND, are cut short", () => {
    const whole = png();
    expect(imageProblem("image/png", whole.subarray(0, 45))).toBe("its IDAT chunk runs past the end of the file: the file is cut short");
    expect(imageProblem("image/png", whole.subarray(0, whole.length - 12))).toBe("it ends before its last chunk (IEND): the file is cut short");
  });

  test("sides of 0 or over 8000 pixels are refused before the pixels are read", () => {
    expect(imageProblem("image/png", png(0, 3))).toBe("its width or height is 0");
    expect(imageProblem("image/png", png(8001, 1, { idat: [] }))).toBe("it is 8001x1 pixels, over the 8000 pixel limit of a side");
    expect(imageProblem("image/png", png(8000, 1, { idat: [chunk("IDAT", pixels(8000, 1))] }))).toBeUndefined();
  });

  test("a pixel stream over 64 MiB is not inflated: the structure alone decides", () => {
    // 8000 x 8000 RGB is 192 MB once inflated; the few bytes here would fail the size check if it ran
    expect(imageProblem("image/png", png(8000, 8000, { idat: [chunk("IDAT", pixels(4, 1))] }))).toBeUndefined();
  });

  test("bytes that do not start with the signature", () => {
    expect(imageProblem("image/png", Buffer.from("GIF89a but called png"))).toBe("it does not start with the PNG signature");
    expect(imageProblem("image/png", SIGNATURE.subarray(0, 7))).toBe("it does not start with the PNG signature");
  });
});

// ---- JPEG

const segment = (marker: number, body: Buffer) => Buffer.concat([Buffer.from([0xff, marker]), be16(body.length + 2), body]);
const sof = (width: number, height: number, marker = 0xc0) => segment(marker, Buffer.concat([Buffer.from([8]), be16(height), be16(width), Buffer.from([1, 1, 0x11, 0])]));
const sos = segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0]));
const app0 = segment(0xe0, Buffer.from("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", "latin1"));
function jpeg(...parts: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8]), ...parts]);
}
const SCAN = Buffer.from([0x12, 0x34, 0xff, 0x00, 0x56]);
const EOI = Buffer.from([0xff, 0xd9]);

describe("JPEG", () => {
  test("a frame, a scan and the end marker are usable, progressive frames and fill bytes too", () => {
    expect(imageProblem("image/jpeg", jpeg(app0, sof(16, 9), sos, SCAN, EOI))).toBeUndefined();
    expect(imageProblem("image/jpeg", jpeg(Buffer.from([0xff, 0xff]), app0, sof(16, 9, 0xc2), sos, SCAN, EOI))).toBeUndefined();
    // bytes after the end marker are ignored by decoders, and so here
    expect(imageProblem("image/jpeg", jpeg(sof(1, 1), sos, SCAN, EOI, Buffer.from("trailing")))).toBeUndefined();
  });

  test("restart and TEM markers before the frame have no length and are stepped over", () => {
    expect(imageProblem("image/jpeg", jpeg(Buffer.from([0xff, 0xd0, 0xff, 0x01]), sof(2, 2), sos, SCAN, EOI))).toBeUndefined();
  });

  test("a scan with no frame header before it", () => {
    expect(imageProblem("image/jpeg", jpeg(app0, sos, SCAN, EOI))).toBe("it has no frame header (SOF) before its image data");
  });

  test("the end marker before any scan", () => {
    expect(imageProblem("image/jpeg", jpeg(app0, sof(4, 4), Buffer.from([0xff, 0xd9, 0, 0])))).toBe("it ends before its image data");
  });

  test("a scan that never reaches the end marker, and segments that run past the end, are cut short", () => {
    expect(imageProblem("image/jpeg", jpeg(sof(4, 4), sos, SCAN))).toBe("it has no end-of-image marker: the file is cut short");
    expect(imageProblem("image/jpeg", jpeg(app0).subarray(0, 12))).toBe("a segment runs past the end of the file: the file is cut short");
    expect(imageProblem("image/jpeg", jpeg(app0))).toBe("it ends before its image data: the file is cut short");
  });

  test("a byte where a marker belongs names its offset", () => {
    expect(imageProblem("image/jpeg", jpeg(app0, Buffer.from([0x00, 0xc0, 0, 0, 0])))).toBe("it has no segment marker at byte 20");
  });

  test("a frame header too short, a zero side and a side over the limit", () => {
    expect(imageProblem("image/jpeg", jpeg(segment(0xc0, Buffer.from([8, 0, 1, 0])), sos, SCAN, EOI))).toBe("its frame header is invalid");
    expect(imageProblem("image/jpeg", jpeg(sof(0, 10), sos, SCAN, EOI))).toBe("its width or height is 0");
    expect(imageProblem("image/jpeg", jpeg(sof(640, 9000), sos, SCAN, EOI))).toBe("it is 640x9000 pixels, over the 8000 pixel limit of a side");
  });

  test("a length below 2 is a broken segment", () => {
    expect(imageProblem("image/jpeg", jpeg(Buffer.from([0xff, 0xe1, 0x00, 0x01, 0, 0])))).toBe("a segment runs past the end of the file: the file is cut short");
  });

  test("bytes that do not start with the signature", () => {
    expect(imageProblem("image/jpeg", Buffer.from([0xff, 0xd9, 0, 0]))).toBe("it does not start with the JPEG signature");
  });
});

// ---- GIF

function gif(width: number, height: number, body: Buffer[], version = "89a"): Buffer {
  const table = Buffer.from([0, 0, 0, 255, 255, 255]); // two colours: flags 0x80, size bits 0
  return Buffer.concat([Buffer.from(`GIF${version}`, "ascii"), le16(width), le16(height), Buffer.from([0x80, 0, 0]), table, ...body, Buffer.from([0x3b])]);
}
const image = (localTable = false) =>
  Buffer.concat([Buffer.from([0x2c]), le16(0), le16(0), le16(1), le16(1), Buffer.from([localTable ? 0x80 : 0]), localTable ? Buffer.alloc(6) : Buffer.alloc(0), Buffer.from([2, 2, 0x44, 0x01, 0])]);
const graphicControl = Buffer.from([0x21, 0xf9, 4, 1, 0, 0, 0, 0]);

describe("GIF", () => {
  test("an image with extensions and a local colour table is usable; GIF87a too", () => {
    expect(imageProblem("image/gif", gif(1, 1, [graphicControl, image(true)]))).toBeUndefined();
    expect(imageProblem("image/gif", gif(3, 2, [image(), image()], "87a"))).toBeUndefined();
  });

  test("a trailer with no image before it holds no image", () => {
    expect(imageProblem("image/gif", gif(1, 1, [graphicControl]))).toBe("it holds no image");
  });

  test("a block of an unknown kind names its byte and offset", () => {
    expect(imageProblem("image/gif", gif(1, 1, [Buffer.from([0x99])]))).toBe("it has an unknown block (0x99) at byte 19");
  });

  test("each kind of block cut short says which", () => {
    const whole = gif(1, 1, [graphicControl, image()]);
    expect(imageProblem("image/gif", whole.subarray(0, 22))).toBe("an extension block runs past the end of the file");
    expect(imageProblem("image/gif", whole.subarray(0, 30))).toBe("an image descriptor runs past the end of the file");
    expect(imageProblem("image/gif", whole.subarray(0, 39))).toBe("its image data runs past the end of the file");
    expect(imageProblem("image/gif", whole.subarray(0, whole.length - 1))).toBe("it ends before its trailer: the file is cut short");
  });

  test("the screen's size is checked, and the signature", () => {
    expect(imageProblem("image/gif", gif(0, 5, [image()]))).toBe("its width or height is 0");
    expect(imageProblem("image/gif", gif(9000, 5, [image()]))).toBe("it is 9000x5 pixels, over the 8000 pixel limit of a side");
    expect(imageProblem("image/gif", Buffer.from("GIF90a-----------"))).toBe("it does not start with the GIF signature");
  });
});

// ---- WebP

function riff(...chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from("WEBP", "ascii"), ...chunks]);
  return Buffer.concat([Buffer.from("RIFF", "ascii"), le32(body.length), body]);
}
function webpChunk(type: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(type, "ascii"), le32(data.length), data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}
const vp8 = (width: number, height: number) => webpChunk("VP8 ", Buffer.concat([Buffer.from([0, 0, 0, 0x9d, 0x01, 0x2a]), le16(width), le16(height)]));
const vp8l = (width: number, height: number) => webpChunk("VP8L", Buffer.concat([Buffer.from([0x2f]), le32(((width - 1) | ((height - 1) << 14)) >>> 0)]));
const vp8x = (width: number, height: number) => webpChunk("VP8X", Buffer.concat([Buffer.from([0x10, 0, 0, 0]), le24(width - 1), le24(height - 1)]));

describe("WebP", () => {
  test("lossy and lossless bitstreams are usable, and are measured", () => {
    expect(imageProblem("image/webp", riff(vp8(30, 20)))).toBeUndefined();
    expect(imageProblem("image/webp", riff(vp8l(7, 9)))).toBeUndefined();
    expect(imageProblem("image/webp", riff(vp8(8001, 20)))).toBe("it is 8001x20 pixels, over the 8000 pixel limit of a side");
    expect(imageProblem("image/webp", riff(vp8(0, 20)))).toBe("its width or height is 0");
    expect(imageProblem("image/webp", riff(vp8l(8000, 8001)))).toBe("it is 8000x8001 pixels, over the 8000 pixel limit of a side");
  });

  test("with a VP8X canvas the canvas decides the size, and an animation is enough", () => {
    expect(imageProblem("image/webp", riff(vp8x(100, 50), vp8l(9000, 9000)))).toBeUndefined();
    expect(imageProblem("image/webp", riff(vp8x(100, 50), webpChunk("ANIM", Buffer.alloc(6))))).toBeUndefined();
    expect(imageProblem("image/webp", riff(vp8x(8100, 50), vp8(1, 1)))).toBe("it is 8100x50 pixels, over the 8000 pixel limit of a side");
    expect(imageProblem("image/webp", riff(webpChunk("VP8X", Buffer.alloc(4)), vp8(1, 1)))).toBe("its VP8X header is invalid");
  });

  test("an ANIM chunk without a canvas is not an image; metadata chunks alone are no bitstream", () => {
    expect(imageProblem("image/webp", riff(webpChunk("ANIM", Buffer.alloc(6)), webpChunk("EXIF", Buffer.alloc(3))))).toBe("it has no image bitstream (VP8, VP8L or an animation)");
  });

  test("broken bitstream headers", () => {
    expect(imageProblem("image/webp", riff(webpChunk("VP8 ", Buffer.alloc(10))))).toBe("its VP8 bitstream header is invalid");
    expect(imageProblem("image/webp", riff(webpChunk("VP8L", Buffer.from([0x2e, 0, 0, 0, 0]))))).toBe("its VP8L bitstream header is invalid");
  });

  test("a RIFF size past the file and a chunk past the RIFF size are cut short", () => {
    const whole = riff(vp8(30, 20));
    expect(imageProblem("image/webp", whole.subarray(0, whole.length - 2))).toBe("its RIFF size is past the end of the file: the file is cut short");
    const lying = Buffer.concat([Buffer.from("RIFF"), le32(4 + 8 + 4), Buffer.from("WEBP"), Buffer.from("VP8 "), le32(200), Buffer.alloc(4)]);
    expect(imageProblem("image/webp", lying)).toBe("its VP8 chunk runs past the end of the file");
  });

  test("bytes that do not start with the signature", () => {
    expect(imageProblem("image/webp", Buffer.from("RIFF\0\0\0\0WAVEfmt chunk"))).toBe("it does not start with the WebP signature");
  });
});

test("a media type models do not take, and an empty file, are said before any parsing", () => {
  expect(imageProblem("image/bmp", Buffer.from("BM"))).toBe("image/bmp is not an image type models take (PNG, JPEG, GIF or WebP)");
  expect(imageProblem("image/svg+xml", Buffer.from("<svg/>"))).toContain("is not an image type models take");
  for (const type of ["image/png", "image/jpeg", "image/gif", "image/webp"]) expect(imageProblem(type, new Uint8Array())).toBe("the file is empty");
});
