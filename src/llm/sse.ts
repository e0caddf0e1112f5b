// Server-sent events from a byte stream: `data:` lines joined per event, `event:` names kept,
// comment lines (`: OPENROUTER PROCESSING`) reported as signs of life, CRLF and CR line ends read.
export type SseMessage = { event: string; data: string };

export async function* sseMessages(body: ReadableStream<Uint8Array>, onBytes: () => void): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  const take = (line: string): SseMessage | undefined => {
    if (line === "") {
      if (data.length === 0) return (event = ""), undefined;
      const message = { event: event || "message", data: data.join("\n") };
      event = "";
      data = [];
      return message;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    return undefined;
  };
  for await (const bytes of body) {
    onBytes();
    buffer += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = lineEnd(buffer)) !== -1) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(buffer[end] === "\r" && buffer[end + 1] === "\n" ? end + 2 : end + 1);
      const message = take(line);
      if (message) yield message;
    }
  }
  buffer += decoder.decode();
  // A last event without its blank line still counts when the stream ends.
  for (const line of [...buffer.split(/\r\n|\r|\n/), ""]) {
    const message = take(line);
    if (message) yield message;
  }
}

function lineEnd(text: string): number {
  const n = text.indexOf("\n");
  const r = text.indexOf("\r");
  if (r === -1) return n;
  // A lone CR at the very end may be the first half of a CRLF still in flight.
  if (r === text.length - 1) return n;
  return n === -1 ? r : Math.min(n, r);
}
