import { effect, mount } from "./lib/signal";
import { onFeed, row, rows, version } from "./state/list";
import { alertFor, setTitleCount } from "./state/notify";
import { profile, signInWithLink } from "./state/session";
import { App } from "./ui/App";
import { onKey } from "./ui/Shortcuts";
import "./styles.css";

signInWithLink();
mount(() => <App />, document.getElementById("app") as HTMLElement);
addEventListener("keydown", onKey);

// The tab's title carries the number of conversations with unread messages in the list.
effect(() => {
  version.value;
  setTitleCount(rows().filter((id) => (row(id)?.unread_count ?? 0) > 0).length);
});
onFeed((frame, held) => alertFor(frame, held, profile.peek()?.id ?? 0));
