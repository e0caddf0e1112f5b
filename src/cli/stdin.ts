// Reads piped stdin without ever hanging: with a prompt argument, a stdin that sends nothing within
// the wait is left alone; once data flows it is read to the end.
export type StdinResult = { text: string; timedOut: boolean };

export async function readStdin(options: { firstByteTimeoutMs?: number }): Promise<StdinResult> {
  const reader = Bun.stdin.stream().getReader() as unknown as Reader;
  const decoder = new TextDecoder();
  let text = "";
  try {
    const first = await firstChunk(reader, options.firstByteTimeoutMs);
    if (first === "timeout") return { text: "", timedOut: true };
    if (first.done) return { text: "", timedOut: false };
    text += decoder.decode(first.value, { stream: true });
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return { text: text + decoder.decode(), timedOut: false };
  } finally {
    reader.releaseLock();
  }
}

type Reader = ReadableStreamDefaultReader<Uint8Array>;
type Chunk = Awaited<ReturnType<Reader["read"]>>;

function firstChunk(reader: Reader, timeoutMs: number | undefined): Promise<Chunk | "timeout"> {
  const read = reader.read();
  if (timeoutMs === undefined) return read;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      resolve("timeout");
      reader.cancel().catch(() => {});
    }, timeoutMs);
    read.then(
      (chunk) => (clearTimeout(timer), resolve(chunk)),
      (error) => (clearTimeout(timer), reject(error)),
    );
  });
}
