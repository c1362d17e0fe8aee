/**
 * Builds the web console (Preact) into console/dist, which Bosun serves at /ui/. Hashed file
 * names let the server cache assets forever; no inline script ends up in index.html, so the
 * server's Content-Security-Policy can forbid them.
 */
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/ui/',
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
});
