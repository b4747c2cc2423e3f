// The interactive chunk: the pre-chat form, the email card and (issue 22) bots' and agents'
// prompts. Loaded on first need through state/ui.ts needExtras(), so the open chat's bundle
// does not carry it (an inbox with a pre-chat form fetches it as its chat opens).
import { installStyles } from "../styles/install";
import css from "./extras.css?inline";

installStyles(css);

import "./strings";

export { EmailCollect } from "./EmailCollect";
export { PreChatForm } from "./PreChatForm";
export { Prompt } from "./Prompt";
