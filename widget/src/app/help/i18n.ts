import { en, type Key, t } from "../i18n";
import { type HelpKey, helpEn } from "./en";

// The English strings join the bundled ones when the chunk loads (other locales already carry
// them in their JSON), so the open chat's bundle pays nothing for them.
Object.assign(en, helpEn);

export const ht = (key: HelpKey) => t(key as unknown as Key);
