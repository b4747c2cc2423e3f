import { notifyHost } from "../bridge";
import { config, embedded } from "../config";

/**
 * Where the chat keeps its session and unsent messages. Embedded, that is the host page's
 * storage (the loader holds it: first-party, so browsers that block or wipe third-party
 * storage still remember the visitor); opened on its own, this origin's local storage.
 */
let hosted: Record<string, unknown> | null = null;

/** The host's copy, handed over by the loader before the chat starts. */
export function adoptHostStorage(stored: Record<string, unknown>) {
  hosted = { ...stored };
}

const key = (name: string) => `parley:${config.inbox}:${name}`;

export function load<T>(name: string, fallback: T): T {
  if (hosted) {
    return (hosted[name] as T | null | undefined) ?? fallback;
  }
  try {
    const raw = localStorage.getItem(key(name));
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function store(name: string, value: unknown) {
  const v = value ?? null;
  if (hosted && embedded()) {
    hosted[name] = v;
    notifyHost({ type: "store", payload: { name, value: v } });
    return;
  }
  try {
    if (v === null) {
      localStorage.removeItem(key(name));
    } else {
      localStorage.setItem(key(name), JSON.stringify(v));
    }
  } catch {
    // Storage blocked or full: the chat still works, it just forgets on reload.
  }
}
