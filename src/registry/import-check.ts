// Bounds the time a tool file's import may take. Each file is first imported in a Worker; one that
// does not settle within the timeout is reported and never imported in rein's own thread, where a
// synchronous endless loop would block everything, signal handlers included (a timer cannot fire
// either). A hung worker is terminated (that stops even a busy loop) and a new one checks the rest.

import { dirname, join } from "node:path";

/** How long a worker may take to start (it loads the tool modules), before checks are given up. */
const START_TIMEOUT_MS = 30_000;

export type ImportCheck = { hung: Set<string>; checked: boolean };

/** The files whose import did not settle within `timeoutMs`; `checked` is false when no worker could run. */
export async function checkImports(files: readonly string[], timeoutMs: number): Promise<ImportCheck> {
  const hung = new Set<string>();
  let next = 0;
  while (next < files.length) {
    const worker = await startWorker();
    if (!worker) return { hung, checked: false };
    try {
      for (; next < files.length; next++) {
        if (!(await worker.settles(files[next]!, timeoutMs))) {
          hung.add(files[next++]!);
          break;
        }
      }
    } finally {
      worker.stop();
    }
  }
  return { hung, checked: true };
}

/**
 * The worker's module: beside this one when run from source; in the compiled binary it is an entry
 * of its own (build.ts), named after its path under src/, while this code sits in a hashed chunk.
 */
function workerUrl(): string {
  if (!Bun.isStandaloneExecutable) return new URL("./import-check-worker.ts", import.meta.url).href;
  return join(dirname(Bun.main), "registry", "import-check-worker.js");
}

type CheckWorker = { settles: (file: string, timeoutMs: number) => Promise<boolean>; stop: () => void };

async function startWorker(): Promise<CheckWorker | undefined> {
  let worker: Worker;
  try {
    worker = new Worker(workerUrl());
  } catch {
    return undefined;
  }
  // Unref'd: a check in progress never keeps rein alive on its own.
  worker.unref();
  const messages = new MessageQueue(worker);
  if ((await messages.next(START_TIMEOUT_MS)) !== "ready") {
    worker.terminate();
    return undefined;
  }
  return {
    settles: async (file, timeoutMs) => {
      worker.postMessage(file);
      return (await messages.next(timeoutMs)) === file;
    },
    stop: () => worker.terminate(),
  };
}

/** A worker's messages one at a time; undefined on a timeout or a worker error. */
class MessageQueue {
  private waiting: ((message: string | undefined) => void) | undefined;
  private readonly queued: (string | undefined)[] = [];

  constructor(worker: Worker) {
    worker.onmessage = (event: MessageEvent<string>) => this.push(event.data);
    worker.onerror = () => this.push(undefined);
  }

  next(timeoutMs: number): Promise<string | undefined> {
    if (this.queued.length > 0) return Promise.resolve(this.queued.shift());
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        resolve(undefined);
      }, timeoutMs);
      this.waiting = (message) => {
        clearTimeout(timer);
        this.waiting = undefined;
        resolve(message);
      };
    });
  }

  private push(message: string | undefined): void {
    if (this.waiting) this.waiting(message);
    else this.queued.push(message);
  }
}
