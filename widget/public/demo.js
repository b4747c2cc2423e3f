// The demo host page: embeds the widget for ?inbox=<identifier> with the documented snippet
// (an external file, since the page's CSP forbids inline scripts), and wires the SDK buttons.
const params = new URLSearchParams(location.search);
const inbox = params.get("inbox");
const src = new URL("/widget.js", location.href).href;

if (inbox) {
  document.getElementById("snippet").textContent =
    `<script src="${src}" data-inbox="${inbox}" async></script>`;
  const tag = document.createElement("script");
  tag.src = src;
  tag.async = true;
  tag.dataset.inbox = inbox;
  document.body.appendChild(tag);
} else {
  document.getElementById("missing").hidden = false;
}

const log = (text) => {
  const item = document.createElement("li");
  item.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  document.getElementById("events").prepend(item);
};

const calls = {
  open: (p) => p.open(),
  close: (p) => p.close(),
  toggle: (p) => p.toggle(),
  setUser: (p) => p.setUser("demo-user-1", { name: "Dana Demo", email: "dana@example.com" }),
  fr: (p) => p.setLocale("fr"),
  ar: (p) => p.setLocale("ar"),
  en: (p) => p.setLocale("en"),
  reset: (p) => p.reset(),
};

document.querySelector(".buttons").addEventListener("click", (e) => {
  const name = e.target.closest("[data-sdk]")?.dataset.sdk;
  if (name && window.$parley) {
    calls[name](window.$parley);
  }
});

addEventListener("parley:ready", () => {
  log("ready");
  for (const name of ["open", "close", "message"]) {
    window.$parley.on(name, (detail) =>
      log(detail ? `${name}: ${detail.sender?.name || "visitor"}: ${detail.content ?? ""}` : name),
    );
  }
});
