/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";

/**
 * The app window freezes `Object.prototype` (Tauri's `freezePrototype`). Assigning a property that
 * `Object.prototype` already has (`constructor`, `toString`) to an object that inherits it then
 * throws ("cannot assign to read only property"): d3-color (under React Flow) does it at load, so
 * the page stayed blank, and elkjs (auto-layout) when it starts. Define those properties instead.
 * The build fails if a dependency changes so that a patch no longer applies.
 */
const FROZEN_PROTOTYPE_PATCHES: { file: RegExp; from: string; to: string }[] = [
  {
    file: /[\\/]d3-color[\\/].*\.m?js$/,
    from: "prototype.constructor = constructor;",
    to: 'Object.defineProperty(prototype, "constructor", { value: constructor, writable: true, configurable: true });',
  },
  {
    file: /[\\/]elkjs[\\/]lib[\\/]elk\.bundled\.js$/,
    from: "_.toString=function(){return this.Ib()};",
    to: 'Object.defineProperty(_,"toString",{value:function(){return this.Ib()},writable:true,enumerable:true,configurable:true});',
  },
];

function frozenPrototypeSafe(): Plugin {
  return {
    name: "baton:frozen-prototype-safe",
    transform(code, id) {
      const patches = FROZEN_PROTOTYPE_PATCHES.filter((p) => p.file.test(id));
      if (patches.length === 0) return null;
      let out = code;
      for (const p of patches) {
        if (!out.includes(p.from)) this.error(`${id} changed: update FROZEN_PROTOTYPE_PATCHES in vite.config.ts`);
        out = out.split(p.from).join(p.to);
      }
      return { code: out, map: null };
    },
  };
}

export default defineConfig({
  plugins: [react(), frozenPrototypeSafe()],
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
  // The layout worker (src/model/layout.worker.ts) is a module worker with ELK loaded on demand;
  // its bundle gets the same frozen-prototype patches (Tauri freezes the page's prototypes).
  worker: { format: "es", plugins: () => [frozenPrototypeSafe()] },
  test: {
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}", "eslint-rules/**/*.test.js"],
    setupFiles: ["./vitest.setup.ts"],
    css: false,
  },
});
