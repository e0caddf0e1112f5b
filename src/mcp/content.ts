// What the model reads of MCP content (a tool result's blocks, a prompt's messages, a resource's
// contents): text as text, images as images it can see, embedded resources as their text (an image
// blob as an image), and whatever it cannot read (audio, other binary) as a line saying what it was.
import type { ContentBlock as McpContent, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { ImageBlock } from "../agent/types.ts";
import type { ToolImage } from "../sdk.ts";

export type Parts = { texts: string[]; images: ToolImage[] };
type ResourceContents = ReadResourceResult["contents"][number];

export function contentParts(blocks: readonly McpContent[]): Parts {
  const parts: Parts = { texts: [], images: [] };
  for (const block of blocks) {
    if (block.type === "text") parts.texts.push(block.text);
    else if (block.type === "image") parts.images.push({ mediaType: block.mimeType, base64: block.data });
    else if (block.type === "audio") parts.texts.push(`[audio (${block.mimeType}), ${approxBytes(block.data)} bytes, not shown]`);
    else if (block.type === "resource") addResource(parts, block.resource, (text) => `[resource ${block.resource.uri}]\n${text}`);
    else if (block.type === "resource_link") parts.texts.push(`[resource link ${block.uri}${block.name ? ` (${block.name})` : ""}]`);
  }
  return parts;
}

/** A resource's contents; `frame` wraps each text part (says where it came from). */
export function resourceParts(contents: readonly ResourceContents[], frame: (text: string, uri: string) => string): Parts {
  const parts: Parts = { texts: [], images: [] };
  for (const one of contents) addResource(parts, one, (text) => frame(text, one.uri));
  return parts;
}

/** Images as the blocks of a user's message. */
export function imageBlocks(images: readonly ToolImage[]): ImageBlock[] {
  return images.map((i) => ({ type: "image", source: { type: "base64", media_type: i.mediaType, data: i.base64 } }));
}

function addResource(parts: Parts, resource: ResourceContents, frame: (text: string) => string): void {
  if ("text" in resource && typeof resource.text === "string") {
    parts.texts.push(frame(resource.text));
    return;
  }
  const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
  if (resource.mimeType?.startsWith("image/") && blob) parts.images.push({ mediaType: resource.mimeType, base64: blob });
  else parts.texts.push(`[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}: ${approxBytes(blob)} bytes of binary, not shown]`);
}

function approxBytes(base64: string): number {
  return Buffer.byteLength(base64, "base64");
}
