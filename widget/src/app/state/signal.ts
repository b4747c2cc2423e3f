/**
 * A tiny signal store (what @preact/signals does, in a few hundred bytes: the widget's size
 * budget has no room for the 3 KB of the library and its Preact integration). Reading `.value`
 * inside an effect subscribes that effect; writing notifies the subscribers.
 */
type Run = () => void;
type Source = { subscribe(run: Run): () => void };

let reads: Set<Source> | null = null;

export class Signal<T> implements Source {
  private readonly subscribers = new Set<Run>();

  constructor(private current: T) {}

  get value(): T {
    reads?.add(this);
    return this.current;
  }

  set value(next: T) {
    if (!Object.is(next, this.current)) {
      this.current = next;
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

/**
 * Runs `fn`, then again whenever a signal it read changes (the reads are collected anew on
 * every run). With `schedule`, changes are coalesced: one rerun per scheduled tick.
 */
export function effect(fn: () => void, schedule?: (run: Run) => void): () => void {
  let stops: (() => void)[] = [];
  let queued = false;
  let disposed = false;
  const stop = () => {
    for (const s of stops) {
      s();
    }
    stops = [];
  };
  const run = () => {
    queued = false;
    if (disposed) {
      return;
    }
    stop();
    const outer = reads;
    const seen = new Set<Source>();
    reads = seen;
    try {
      fn();
    } finally {
      reads = outer;
    }
    stops = [...seen].map((source) => source.subscribe(changed));
  };
  const changed = () => {
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
    stop();
  };
}
