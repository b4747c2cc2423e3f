// The agents' app (docs/dashboard.md): one production build into widget/dist/app, which the
// Worker's static assets serve at /app (the Worker answers deep links with its index.html).
// It runs after the widget's build, which empties widget/dist.
import path from "node:path";
import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: "/app/",
  publicDir: false,
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    outDir: path.join(here, "..", "widget", "dist", "app"),
    emptyOutDir: true,
    target: "es2022",
    cssTarget: ["chrome87", "edge88", "firefox92", "safari14"],
    // Nothing inlined into the HTML: the app's CSP allows 'self' scripts and styles only.
    modulePreload: false,
    assetsInlineLimit: 0,
    minify: "terser",
    // Never `pure_getters`: it drops reads whose result is unused, and `version.value;` is such a
    // read that subscribes the list to its rows (the list then missed feed frames).
    terserOptions: {
      module: true,
      toplevel: true,
      ecma: 2020,
      compress: { passes: 2 },
    },
  },
});
