import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// The server serves the build under /ui/ (see docs/ui.md); file names carry content hashes, so
// the server can cache everything but index.html for a year.
export default defineConfig({
  base: "/ui/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // No inline scripts or styles: the server's Content-Security-Policy allows only 'self'.
    assetsInlineLimit: 0,
  },
  server: {
    // `npm run dev` against a server on the default port.
    proxy: { "/health": "http://localhost:3000", "/ui/api": "http://localhost:3000" },
  },
  test: {
    include: ["src/**/*.test.ts"],
  },
});
