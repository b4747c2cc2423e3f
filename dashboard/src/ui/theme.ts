import { signal } from "../lib/signal";

type Theme = "auto" | "light" | "dark";
const KEY = "parley.app.theme";

const initial = (): Theme => {
  try {
    const v = localStorage.getItem(KEY);
    return v === "light" || v === "dark" ? v : "auto";
  } catch {
    return "auto";
  }
};

export const theme = signal<Theme>(initial());

const apply = (t: Theme) => {
  if (t === "auto") {
    document.documentElement.removeAttribute("data-theme");
  } else {
    document.documentElement.setAttribute("data-theme", t);
  }
};
apply(theme.peek());

export function setTheme(t: Theme) {
  theme.value = t;
  apply(t);
  try {
    localStorage.setItem(KEY, t);
  } catch {
    // not kept
  }
}
