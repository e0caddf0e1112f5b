// Bounds the time a tool file's import may take. Each file is first imported in a Worker; one that
// does not settle within the timeout is reported and never imported in rein's own thread, where a
// synchronous endless loop would block everything, signal handlers included (a timer cannot fire
// either). A hung worker is terminated (that stops even a busy loop) and a new one checks the rest.

import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { readOwnBytes } from "../sdk/own-file.ts";

/** How long a worker may take to start (it loads the tool modules), before checks are given up. */
const START_TIMEOUT_MS = 30_000;

export type ImportCheck = { hung: Set<string>; checked: boolean };

/**
 * Checks tool files' imports for one registry. A file whose import settled before is not checked
 * again while it and the helpers beside it are unchanged (path, size, mtime and a hash of its
 * text); unless a file hangs this time, as an unchanged file may import that one. The worker is kept
 * between checks (starting one costs more than the imports), and replaced after a hang.
 */
export class ImportChecker {
  private worker: CheckWorker | undefined;
  private readonly settled = new Map<string, string>();

  constructor(private readonly timeoutMs: number) {}

  /** `helpers`: a fingerprint of what the files may import (the rest of their folder). */
  async check(files: readonly string[], helpers: string): Promise<ImportCheck> {
    const stamps = new Map(files.map((file) => [file, `${stampOf(file)}|${helpers}`]));
    const changed = files.filter((file) => this.settled.get(file) !== stamps.get(file));
    const first = await this.run(changed);
    const rest = first.hung.size > 0 ? files.filter((file) => !changed.includes(file)) : [];
    const second = await this.run(rest);
    const hung = new Set([...first.hung, ...second.hung]);
    const checked = first.checked && second.checked;
    for (const file of [...changed, ...rest]) {
      if (checked && !hung.has(file)) this.settled.set(file, stamps.get(file)!);
      else this.settled.delete(file);
    }
    return { hung, checked };
  }

  private async run(files: readonly string[]): Promise<ImportCheck> {
    const hung = new Set<string>();
    let next = 0;
    while (next < files.length) {
      this.worker ??= await startWorker();
      if (!this.worker) return { hung, checked: false };
      for (; next < files.length; next++) {
        if (!(await this.worker.settles(files[next]!, this.timeoutMs))) {
          hung.add(files[next++]!);
          this.worker.stop(); // a hung worker is terminated: that stops even a busy loop
          this.worker = undefined;
          break;
        }
      }
    }
    return { hung, checked: true };
  }
}

/** Size, modification time and a hash of the text: an edit that keeps the size and the mtime still shows. */
function stampOf(file: string): string {
  try {
    const s = statSync(file);
    return `${s.size}:${s.mtimeMs}:${Bun.hash(readOwnBytes(file).bytes).toString(36)}`;
  } catch {
    return "";
  }
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
  let version = 0;
  return {
    settles: async (file, timeoutMs) => {
      const request = `${file}?check=${++version}`;
      worker.postMessage(request);
      return (await messages.next(timeoutMs)) === request;
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
