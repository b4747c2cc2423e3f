// The lazy interactive chunk (the pre-chat form, bots' and the inbox's prompts): loaded on first
// need. Its shape is written here rather than imported, so the main bundle's modules have no
// import (not even a type) into the chunk, which imports them.
import type { FunctionComponent } from "preact";
import type { Message } from "./api/types";
import { signal } from "./state/signal";

type Extras = {
  PreChatForm: FunctionComponent;
  Prompt: FunctionComponent<{ message: Message }>;
};

/** The chunk once loaded; renders pick it up when it lands. */
export const extras = signal<Extras | null>(null);

let asked = false;
/** Loads the interactive chunk once (again after a failure). */
export function needExtras() {
  if (!asked) {
    asked = true;
    import("./interactive")
      .then((m) => {
        extras.value = m;
      })
      .catch(() => {
        asked = false;
      });
  }
}
