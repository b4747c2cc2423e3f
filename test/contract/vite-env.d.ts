// Vite's module types (`?raw` imports, import.meta.glob): the docs tests read the repository
// through the bundler, since workerd has no file system.
/// <reference types="vite/client" />
