// Two production builds into widget/dist (served by the Worker's static assets):
//   vite build -c widget/vite.config.ts               the app: frame.html + one hashed JS bundle
//   vite build -c widget/vite.config.ts --mode loader widget.js, a framework-free IIFE
//   vite build -c widget/vite.config.ts --mode preview widget-preview.js, an ES module the
//                                                   loader imports for the closed chat's preview
import path from "node:path";
import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import { defineConfig, type Plugin } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, "dist");

// The help center's chunk imports nothing the frame has not loaded already, so Vite's helper
// for preloading a lazy chunk's dependencies (and its error event) has nothing to do: this
// stand-in keeps its ~700 B out of the open chat's budget.
const PRELOAD_HELPER = "\0vite/preload-helper.js";
const noPreloadHelper: Plugin = {
  name: "parley:no-preload-helper",
  enforce: "pre",
  load: (id) => (id === PRELOAD_HELPER ? "export const __vitePreload = (load) => load();" : null),
};

/** One file of its own for the host page (no framework): the loader, or the reply preview. */
const hostFile = (entry: string, format: "iife" | "es", fileName: string) => ({
  root: here,
  publicDir: false as const,
  build: {
    outDir,
    emptyOutDir: false,
    target: "es2020",
    // Vite keeps an ES library's whitespace (for its users' bundlers): terser, as for the app.
    ...(format === "es" ? { minify: "terser" as const, terserOptions: { module: true } } : {}),
    lib: {
      entry: path.join(here, entry),
      formats: [format],
      name: "parleyLoader",
      fileName: () => fileName,
    },
  },
});

export default defineConfig(({ mode }) =>
  mode === "preview"
    ? hostFile("src/loader/preview.ts", "es", "widget-preview.js")
    : mode === "loader"
      ? hostFile("src/loader/index.ts", "iife", "widget.js")
    : {
        root: here,
        // Relative URLs: the frame finds its bundle and locales wherever Parley is mounted.
        base: "./",
        plugins: [preact({ prerender: { enabled: false } }), noPreloadHelper],
        build: {
          outDir,
          emptyOutDir: true,
          // ES2022 syntax as written (class fields, ??=): Chrome 85, Firefox 79, Safari 14, all
          // from 2020. Lowering the class fields to ES2020 cost ~240 B of helpers.
          target: "es2022",
          // es2020's browsers, but with Firefox 92's system-ui: Lightning CSS then keeps the font
          // one keyword instead of a ten-family fallback list (light-dark() is still lowered).
          cssTarget: ["chrome87", "edge88", "firefox92", "safari14"],
          // One bundle, no polyfill, nothing inlined into the HTML: the frame's CSP stays strict.
          // No preload helper either: the one lazy chunk (help center) has no dependencies.
          modulePreload: false,
          // Terser's extra passes shave a few hundred bytes off esbuild's output: the open chat
          // has a 20 KB gzip budget (docs/widget.md). Never `pure_getters`: reading a signal's
          // `.value` subscribes the running effect, so a read whose result is unused still counts.
          minify: "terser",
          terserOptions: {
            module: true,
            toplevel: true,
            ecma: 2020,
            compress: { passes: 3, unsafe_arrows: true, unsafe_methods: true },
          },
          assetsInlineLimit: 0,
          rollupOptions: { input: path.join(here, "frame.html") },
        },
      },
);
