// The widget's tiny signal store and its render loop, shared rather than copied: the app's first
// load has a 60 KB budget (docs/dashboard.md), and @preact/signals would add its own ~4 KB.

export { mount } from "../../../widget/src/app/mount";
export { computed, effect, type Signal, signal } from "../../../widget/src/app/state/signal";
