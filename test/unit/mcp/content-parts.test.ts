// What the model reads of MCP content, and the one argument check rein makes of an MCP call: text
// as text, images as images, embedded resources as their text or image, what it cannot read (audio,
// binary) as a line saying what it was; and an argument naming a credential, in the input's lists
// and objects, becomes a read request the engine denies.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { contentParts, imageBlocks, resourceParts } from "../../../src/mcp/content.ts";
import { credentialArguments } from "../../../src/mcp/credential-arguments.ts";

const PNG = Buffer.from("fake png bytes").toString("base64");

test("text, images, audio and resource links of a tool result", () => {
  const parts = contentParts([
    { type: "text", text: "first" },
    { type: "image", data: PNG, mimeType: "image/png" },
    { type: "audio", data: Buffer.alloc(1234).toString("base64"), mimeType: "audio/wav" },
    { type: "resource_link", uri: "file:///docs/a.md", name: "a.md" },
    { type: "resource_link", uri: "file:///docs/b.md" },
    { type: "text", text: "last" },
  ] as never);
  expect(parts.texts).toEqual(["first", "[audio (audio/wav), 1234 bytes, not shown]", "[resource link file:///docs/a.md (a.md)]", "[resource link file:///docs/b.md]", "last"]);
  expect(parts.images).toEqual([{ mediaType: "image/png", base64: PNG }]);
});

test("an embedded resource: its text framed with its URI, an image blob as an image, other binary as a line with its size", () => {
  const parts = contentParts([
    { type: "resource", resource: { uri: "db://rows/1", mimeType: "application/json", text: '{"id":1}' } },
    { type: "resource", resource: { uri: "img://logo", mimeType: "image/jpeg", blob: PNG } },
    { type: "resource", resource: { uri: "bin://dump", mimeType: "application/octet-stream", blob: Buffer.alloc(99).toString("base64") } },
    { type: "resource", resource: { uri: "bin://untyped", blob: "" } },
  ] as never);
  expect(parts.texts).toEqual([
    '[resource db://rows/1]\n{"id":1}',
    "[resource bin://dump (application/octet-stream): 99 bytes of binary, not shown]",
    "[resource bin://untyped: 0 bytes of binary, not shown]",
  ]);
  expect(parts.images).toEqual([{ mediaType: "image/jpeg", base64: PNG }]);
});

test("resourceParts frames each text part with the caller's frame and its own URI", () => {
  const parts = resourceParts(
    [
      { uri: "file:///a.txt", text: "alpha" },
      { uri: "file:///b.txt", text: "beta" },
      { uri: "file:///c.png", mimeType: "image/png", blob: PNG },
    ],
    (text, uri) => `<${uri}>${text}</${uri}>`,
  );
  expect(parts.texts).toEqual(["<file:///a.txt>alpha</file:///a.txt>", "<file:///b.txt>beta</file:///b.txt>"]);
  expect(parts.images).toHaveLength(1);
});

test("images become the image blocks of a message", () => {
  expect(imageBlocks([{ mediaType: "image/png", base64: PNG }])).toEqual([{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }]);
  expect(imageBlocks([])).toEqual([]);
});

const home = "/home/u";
const cwd = "/work/p";

test("a credential named in an argument, nested in lists and objects, is a read request for its credential folder; plain arguments are none", () => {
  expect(credentialArguments({ path: "src/main.ts", query: "select 1" }, cwd, home)).toEqual([]);
  const found = credentialArguments({ files: [{ path: "~/.ssh/id_rsa" }], options: { cfg: join(home, ".aws", "credentials") } }, cwd, home);
  expect(found.map((r) => r.permission)).toEqual(["read", "read"]);
  expect(found.map((r) => r.pattern).sort()).toEqual([join(home, ".aws"), join(home, ".ssh")]);
});

test("the same credential named twice is one request", () => {
  expect(credentialArguments(["~/.ssh/id_rsa", { again: "~/.ssh/id_rsa" }], cwd, home)).toHaveLength(1);
});

test("a credential nested past the depth bound is not searched for (the bound keeps a huge input cheap)", () => {
  let deep: unknown = "~/.ssh/id_rsa";
  for (let i = 0; i < 10; i++) deep = { inner: deep };
  expect(credentialArguments(deep, cwd, home)).toEqual([]);
  let shallow: unknown = "~/.ssh/id_rsa";
  for (let i = 0; i < 3; i++) shallow = { inner: shallow };
  expect(credentialArguments(shallow, cwd, home)).toHaveLength(1);
});
