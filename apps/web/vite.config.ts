import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption, type Rollup } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The API server of `npm run dev` (apps/server). */
const apiTarget = process.env.TUMBLE_API_URL ?? 'http://localhost:3000';

/** The public booking page (`/booking`): its first load is held to a budget (issue 19). */
const BOOKING_PAGE = '/src/features/booking/booking-page.tsx';

type GetModuleInfo = Rollup.ManualChunkMeta['getModuleInfo'];
interface Named {
  name?: string;
  value?: unknown;
}
interface Statement {
  type: string;
  source?: { value?: unknown } | null;
  specifiers?: { type: string; imported?: Named; local?: Named; exported?: Named }[];
}

const nameOf = (node: Named | undefined): string => String(node?.name ?? node?.value ?? '');

/**
 * A package's index that only re-exports (`@mantine/core`, `@mantine/hooks`): importing one name
 * from it loads only that name's module, so the walk below follows it per name. Returns the
 * module's exported names with the module each comes from, or undefined when it has code.
 */
function reExports(id: string, getModuleInfo: GetModuleInfo): Map<string, string> | undefined {
  const info = getModuleInfo(id);
  if (!info?.ast || !id.includes('/node_modules/')) return undefined;
  const body = (info.ast as unknown as { body: Statement[] }).body;
  const fromImport = new Map<string, string>();
  const exported = new Map<string, string>();
  for (const statement of body) {
    const source = statement.source
      ? path.resolve(path.dirname(id), String(statement.source.value))
      : undefined;
    if (statement.type === 'ImportDeclaration' && source) {
      for (const s of statement.specifiers ?? []) fromImport.set(nameOf(s.local), source);
    } else if (
      statement.type === 'ExportNamedDeclaration' &&
      !('declaration' in statement && statement.declaration)
    ) {
      for (const s of statement.specifiers ?? []) {
        const from = source ?? fromImport.get(nameOf(s.local));
        if (from) exported.set(nameOf(s.exported), from);
      }
    } else {
      return undefined;
    }
  }
  return exported;
}

/**
 * zod and the schema modules that use it: the public pages validate responses with them only in
 * development and tests (api/client.ts VALIDATE_RESPONSES), so the production build drops them
 * from the booking page, yet keeps them for the admin screens that parse with them.
 */
const isZod = (id: string) => id.includes('/node_modules/zod/');

/**
 * The modules `start` loads through static imports, following a re-exporting package index only
 * for the names the importer imports (from any module: a slight over-estimate that keeps the walk
 * simple), and leaving out the modules that import zod (isZod). Close enough to what Rollup's
 * tree-shaking keeps to choose chunks by; the bench's file list (scripts/bench/frontend.mjs)
 * checks the result.
 */
function staticClosure(start: string, getModuleInfo: GetModuleInfo): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    const info = getModuleInfo(id);
    if (!info || info.importedIds.some(isZod)) return;
    seen.add(id);
    const names = new Set<string>();
    for (const statement of (info.ast as unknown as { body: Statement[] } | null)?.body ?? []) {
      if (statement.type !== 'ImportDeclaration') continue;
      for (const s of statement.specifiers ?? []) {
        names.add(
          s.type === 'ImportSpecifier'
            ? nameOf(s.imported)
            : s.type === 'ImportDefaultSpecifier'
              ? 'default'
              : '*',
        );
      }
    }
    for (const dependency of info.importedIds) {
      const index = reExports(dependency, getModuleInfo);
      if (!index || names.has('*')) {
        visit(dependency);
        continue;
      }
      for (const name of names) {
        const from = index.get(name);
        if (from) visit(from);
      }
    }
  };
  visit(start);
  return seen;
}

let closures: { getModuleInfo: GetModuleInfo; entry: Set<string>; booking: Set<string> } | undefined;

/**
 * React and the router, needed by every page and changing rarely, get a chunk of their own.
 *
 * The booking page's code and what it loads beyond the entry (its Mantine components, hooks and
 * helpers) go into one chunk: left to Rollup they were 37 files of 0.1-6.5 KB, each Mantine piece
 * shared by a different set of admin screens, and ~9 KB of the route's 32.5 KB gzipped was per-file
 * overhead. Screens that share a piece with it load that chunk; what the entry loads stays in it.
 * Everything else is left to Rollup, which splits by use, so the admin screens' Mantine, date
 * pickers and editor stay in their lazy chunks. (A catch-all vendor chunk put every component the admin area uses into the
 * first load: 283 KB of gzipped JS for /booking, docs/performance.md.)
 */
function chunkOf(id: string, { getModuleIds, getModuleInfo }: Rollup.ManualChunkMeta): string | undefined {
  // (Rollup's CommonJS helper, which React's packages need, goes with them.)
  if (
    /\/node_modules\/(react|react-dom|scheduler|react-router|cookie|set-cookie-parser)\//.test(id) ||
    id.includes('commonjsHelpers')
  ) {
    return 'vendor-react';
  }
  if (closures?.getModuleInfo !== getModuleInfo) {
    let entry = '';
    let booking = '';
    for (const candidate of getModuleIds()) {
      if (getModuleInfo(candidate)?.isEntry) entry = candidate;
      if (candidate.endsWith(BOOKING_PAGE)) booking = candidate;
    }
    closures = {
      getModuleInfo,
      entry: staticClosure(entry, getModuleInfo),
      booking: staticClosure(booking, getModuleInfo),
    };
  }
  if (!closures.booking.has(id) || closures.entry.has(id)) return undefined;
  return process.env.SPLITUI && id.includes('/node_modules/') ? 'public-ui' : 'booking-page';
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
      // Only the modules chunkOf names: their imports stay where Rollup puts them (in the entry, say).
      output: { manualChunks: chunkOf, onlyExplicitManualChunks: true },
      onwarn(warning, warn) {
        // zod ships comments in positions Rollup cannot use as annotations; nothing to act on.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/')) return;
        warn(warning);
      },
    },
  },
});
