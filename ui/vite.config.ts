/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Tauri serves the built files itself; `baton serve --ui ui/dist` serves them for the browser.
export default defineConfig({
  plugins: [react()],
  base: "./",
  clearScreen: false,
  // `BATON_API=http://127.0.0.1:PORT npm run dev` sends /api to a running `baton serve`;
  // without it, open the dev server with `?platform=mock`.
  server: {
    port: 5173,
    strictPort: true,
    proxy: process.env.BATON_API ? { "/api": process.env.BATON_API } : undefined,
  },
  build: { outDir: "dist", target: "es2022", chunkSizeWarningLimit: 2500 },
  test: {
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./vitest.setup.ts"],
    css: false,
  },
});
