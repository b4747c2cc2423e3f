import { en, type Key, t } from "../i18n";
import { type PromptKey, promptEn } from "./en";

// The English strings join the bundled ones when the chunk loads (other locales already carry
// them in their JSON), so the open chat's bundle pays nothing for them.
Object.assign(en, promptEn);

export const pt = (key: PromptKey) => t(key as unknown as Key);
