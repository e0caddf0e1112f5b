// An ACP prompt (text, images, embedded resources, links) as what rein's session takes: one text
// and the images that follow it. Embedded files are quoted with their URI; links are named so the
// model can read them with its tools. Pure.
import type { ContentBlock as AcpBlock } from "@agentclientprotocol/sdk";
import type { ContentBlock } from "../app/events.ts";

export type RunPrompt = { text: string; images: ContentBlock[] };

export function promptOf(blocks: readonly AcpBlock[]): RunPrompt {
  const parts: string[] = [];
  const images: ContentBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
        images.push({ type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } });
        break;
      case "resource_link":
        parts.push(`[${block.name || block.uri}](${pathOf(block.uri)})`);
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource) parts.push(`<context uri="${pathOf(resource.uri)}">\n${resource.text}\n</context>`);
        else parts.push(`[binary resource ${pathOf(resource.uri)}${resource.mimeType ? ` (${resource.mimeType})` : ""}: not included]`);
        break;
      }
      case "audio":
        parts.push("[an audio clip: rein cannot listen to audio]");
        break;
    }
  }
  return { text: parts.join("\n\n"), images };
}

/** file:// URIs as the paths the tools take; anything else as it came. */
function pathOf(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}
