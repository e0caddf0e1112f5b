import type { StampedEvent } from "../../src/agent/types.ts";

type Of<T extends StampedEvent["type"]> = Extract<StampedEvent, { type: T }>;
type Subscribable = { subscribe(listener: (event: StampedEvent) => void): () => void };

/** Every event a session emits, in order, with a way to await the next one of a kind (no polling, no sleeps). */
export type EventLog = {
  events: StampedEvent[];
  of<T extends StampedEvent["type"]>(type: T): Of<T>[];
  /** Resolves with the first event (already seen or still to come) of `type` that passes `match`. */
  waitFor<T extends StampedEvent["type"]>(type: T, match?: (event: Of<T>) => boolean): Promise<Of<T>>;
  stop(): void;
};

export function eventLog(session: Subscribable): EventLog {
  const events: StampedEvent[] = [];
  const waiters = new Set<{ test: (event: StampedEvent) => boolean; resolve: (event: StampedEvent) => void }>();
  const stop = session.subscribe((event) => {
    events.push(event);
    for (const waiter of [...waiters]) {
      if (!waiter.test(event)) continue;
      waiters.delete(waiter);
      waiter.resolve(event);
    }
  });
  const of = <T extends StampedEvent["type"]>(type: T) => events.filter((e): e is Of<T> => e.type === type);
  return {
    events,
    of,
    waitFor(type, match = () => true) {
      const test = (e: StampedEvent) => e.type === type && match(e as Of<typeof type>);
      const seen = events.find(test);
      if (seen) return Promise.resolve(seen as Of<typeof type>);
      return new Promise((resolve) => waiters.add({ test, resolve: resolve as (event: StampedEvent) => void }));
    },
    stop,
  };
}
