import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The API server of `npm run dev` (apps/server). */
const apiTarget = process.env.TUMBLE_API_URL ?? 'http://localhost:3000';

/**
 * React and the router, needed by every page and changing rarely, get a chunk of their own. Everything
 * else is left to Rollup, which splits by use: the public booking page loads only the Mantine
 * components, date pickers and editor code its route needs, and the admin screens' share stays in
 * their lazy chunks. (A catch-all vendor chunk put every component the admin area uses into the first
 * load: 283 KB of gzipped JS for /booking; without it 206 KB, docs/performance.md.)
 */
function vendorChunk(id: string): string | undefined {
  if (!id.includes('/node_modules/')) return undefined;
  if (/\/node_modules\/(react|react-dom|scheduler|react-router|cookie|set-cookie-parser)\//.test(id)) {
    return 'vendor-react';
  }
  return undefined;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Writes `.br` and `.gz` beside every text file of the build; the server sends them to browsers
 * that accept them (apps/server/src/app.ts, preCompressed). Compressed once at build time, at the
 * highest levels, instead of on every request. docs/performance.md: the booking page's JS and CSS
 * went over the wire uncompressed.
 */
function precompress(): PluginOption {
  return {
    name: 'tumble-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? path.join(root, 'dist');
      const files = Object.keys(bundle).filter((name) => /\.(js|css|html|svg|json)$/.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(dir, name);
          const data = await readFile(file);
          await writeFile(`${file}.gz`, await gzipAsync(data, { level: 9 }));
          await writeFile(
            `${file}.br`,
            await brotliAsync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
        }),
      );
    },
  };
}

export default defineConfig({
  root,
  // The hoisted @vitejs/plugin-react is typed against the root vite (8, for vitest) while this app
  // builds with its own vite 7; the plugin supports both at runtime, only the declarations differ.
  plugins: [react() as unknown as PluginOption, precompress()],
  define: {
    // Always a string literal, set or not, so Rollup can fold api/client.ts VALIDATE_RESPONSES and
    // drop the response schemas of a production build (an unset VITE_ key would stay a lookup).
    'import.meta.env.VITE_VALIDATE_RESPONSES': JSON.stringify(process.env.VITE_VALIDATE_RESPONSES ?? ''),
  },
  server: {
    port: 5173,
    proxy: {
      // Only these prefixes belong to the API; every other path is an SPA route.
      '^/(api|rest|integrations)(/|\\?|$)': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: { port: 4173 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      output: { manualChunks: vendorChunk },
      onwarn(warning, warn) {
        // zod ships comments in positions Rollup cannot use as annotations; nothing to act on.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/')) return;
        warn(warning);
      },
    },
  },
});
