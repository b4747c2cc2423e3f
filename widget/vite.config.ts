// Two production builds into widget/dist (served by the Worker's static assets):
//   vite build -c widget/vite.config.ts               the app: frame.html + one hashed JS bundle
//   vite build -c widget/vite.config.ts --mode loader widget.js, a framework-free IIFE
import path from "node:path";
import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, "dist");

export default defineConfig(({ mode }) =>
  mode === "loader"
    ? {
        root: here,
        publicDir: false,
        build: {
          outDir,
          emptyOutDir: false,
          target: "es2020",
          lib: {
            entry: path.join(here, "src/loader/index.ts"),
            formats: ["iife"],
            name: "parleyLoader",
            fileName: () => "widget.js",
          },
        },
      }
    : {
        root: here,
        // Relative URLs: the frame finds its bundle and locales wherever Parley is mounted.
        base: "./",
        plugins: [preact({ prerender: { enabled: false } })],
        build: {
          outDir,
          emptyOutDir: true,
          target: "es2020",
          // One bundle, no polyfill, nothing inlined into the HTML: the frame's CSP stays strict.
          modulePreload: { polyfill: false },
          // Terser's extra passes shave a few hundred bytes off esbuild's output: the open chat
          // has a 20 KB gzip budget (docs/widget.md).
          minify: "terser",
          terserOptions: {
            module: true,
            toplevel: true,
            ecma: 2020,
            compress: { passes: 3, pure_getters: true, unsafe_arrows: true, unsafe_methods: true },
          },
          assetsInlineLimit: 0,
          rollupOptions: { input: path.join(here, "frame.html") },
        },
      },
);
