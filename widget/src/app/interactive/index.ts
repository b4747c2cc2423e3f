// The interactive chunk: the pre-chat form and (issue 22) the prompts of bots, agents and the
// inbox itself (its email request is an input_email message). Loaded on first need through state/ui.ts needExtras(), so the open chat's bundle
// does not carry it (an inbox with a pre-chat form fetches it as its chat opens).
import { installStyles } from "../styles/install";
import css from "./extras.css?inline";

installStyles(css);

import "./strings";

export { PreChatForm } from "./PreChatForm";
export { Prompt } from "./Prompt";
