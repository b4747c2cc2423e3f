/**
 * A tiny signal store (what @preact/signals does, in a few hundred bytes: the widget's size
 * budget has no room for the 3 KB of the library and its Preact integration). Reading `.value`
 * inside an effect subscribes that effect; writing notifies the subscribers.
 */
type Run = () => void;
type Source = { version: number; subscribe(run: Run): () => void };

/** The signals the running effect has read, each with the version it saw. */
let reads: Map<Source, number> | null = null;

export class Signal<T> implements Source {
  private readonly subscribers = new Set<Run>();
  /** Counts writes: an effect compares it after its run to see what changed meanwhile. */
  version = 0;

  constructor(private current: T) {}

  get value(): T {
    if (reads && !reads.has(this)) {
      reads.set(this, this.version);
    }
    return this.current;
  }

  set value(next: T) {
    if (!Object.is(next, this.current)) {
      this.current = next;
      this.version++;
      for (const run of [...this.subscribers]) {
        run();
      }
    }
  }

  /** The value without subscribing. */
  peek(): T {
    return this.current;
  }

  subscribe(run: Run) {
    this.subscribers.add(run);
    return () => {
      this.subscribers.delete(run);
    };
  }
}

export const signal = <T>(value: T) => new Signal(value);

/** A derived value, recomputed on read (cheap derivations only); tracked like its sources. */
export const computed = <T>(fn: () => T) => ({
  get value() {
    return fn();
  },
});

/** Runs in a row, each made stale by its own writes, after which an effect is a loop. */
const CYCLE = 100;

/**
 * Runs `fn`, then again whenever a signal it read changes (the reads are collected anew on
 * every run). With `schedule`, changes are coalesced: one rerun per scheduled tick.
 *
 * The subscriptions stay in place while `fn` runs, and a signal written during the run after
 * `fn` read it (a component's useEffect, which Preact runs inside the next render; a ref; an
 * effect set off by this one) makes the effect run again: that write is never lost.
 */
export function effect(fn: () => void, schedule?: (run: Run) => void): () => void {
  const subscriptions = new Map<Source, () => void>();
  let queued = false;
  let running = false;
  let disposed = false;
  let stale = 0;
  const run = () => {
    queued = false;
    if (disposed) {
      return;
    }
    const outer = reads;
    const seen = new Map<Source, number>();
    reads = seen;
    running = true;
    try {
      fn();
    } finally {
      reads = outer;
      running = false;
    }
    for (const [source, unsubscribe] of subscriptions) {
      if (!seen.has(source) || disposed) {
        unsubscribe();
        subscriptions.delete(source);
      }
    }
    let changedMeanwhile = false;
    for (const [source, version] of disposed ? [] : seen) {
      if (!subscriptions.has(source)) {
        subscriptions.set(source, source.subscribe(changed));
      }
      changedMeanwhile ||= source.version !== version;
    }
    stale = changedMeanwhile ? stale + 1 : 0;
    if (stale > CYCLE) {
      stale = 0;
      throw new Error("signal effect cycle: it keeps changing what it reads");
    }
    if (changedMeanwhile) {
      changed();
    }
  };
  const changed = () => {
    if (running) {
      return; // the end of the run compares versions
    }
    if (!schedule) {
      run();
    } else if (!queued) {
      queued = true;
      schedule(run);
    }
  };
  run();
  return () => {
    disposed = true;
    for (const unsubscribe of subscriptions.values()) {
      unsubscribe();
    }
    subscriptions.clear();
  };
}
