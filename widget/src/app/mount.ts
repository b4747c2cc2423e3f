import { type ComponentChild, render } from "preact";
import { effect } from "./state/signal";

/**
 * Renders `view` into `root`, and again (once per tick) whenever a signal it read changes: the
 * tree is small enough that re-rendering it costs less than per-component subscriptions weigh.
 */
export function mount(view: () => ComponentChild, root: Element): () => void {
  const stop = effect(() => render(view(), root), queueMicrotask);
  return () => {
    stop();
    render(null, root);
  };
}
