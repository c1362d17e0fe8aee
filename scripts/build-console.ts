/**
 * `npm run build:console`: builds the web console (console/) with Vite into console/dist, which
 * Bosun serves at /ui/, and writes a gzip and a brotli copy beside every compressible file so
 * that the server sends them without compressing on each request. The build goes to a new
 * folder that replaces the old one at the end, so a server or test reading it never sees half a
 * build. `--if-stale` builds only when a source is newer than the last build (npm test uses it);
 * run by `npm install` (prepare), it says what to do when the toolchain is missing.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = new URL('../console/', import.meta.url).pathname;
const DIST = join(ROOT, 'dist');
const STAMP = '.built';
const COMPRESSIBLE = /\.(html|js|css|svg|json|txt)$/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== DIST && entry.name !== 'node_modules') yield* files(path);
    } else yield path;
  }
}

/** The newest modification time of the console's sources and build configuration. */
function newestSource(): number {
  let newest = 0;
  for (const path of files(ROOT)) newest = Math.max(newest, statSync(path).mtimeMs);
  return newest;
}

function isStale(): boolean {
  const stamp = join(DIST, STAMP);
  return !existsSync(stamp) || statSync(stamp).mtimeMs < newestSource();
}

function compress(dir: string): void {
  for (const path of files(dir)) {
    if (!COMPRESSIBLE.test(path)) continue;
    const body = readFileSync(path);
    writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}

async function build(): Promise<void> {
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch {
    process.stderr.write(
      'The web console is not built: Vite is missing (installed with --omit=dev?). ' +
        'Run `npm install` with the dev dependencies, then `npm run build:console`.\n',
    );
    process.exitCode = process.argv.includes('--optional') ? 0 : 1;
    return;
  }
  const out = join(ROOT, `dist.building-${process.pid}`);
  const old = join(ROOT, `dist.old-${process.pid}`);
  try {
    await vite.build({
      configFile: join(ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: out, emptyOutDir: true },
    });
    compress(out);
    writeFileSync(join(out, STAMP), `${new Date().toISOString()}\n`);
    if (existsSync(DIST)) renameSync(DIST, old);
    renameSync(out, DIST);
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  process.stdout.write(`web console built into ${DIST}\n`);
}

if (!existsSync(ROOT)) {
  process.stdout.write('no console/ folder: nothing to build\n');
} else if (process.argv.includes('--if-stale') && !isStale()) {
  // Up to date.
} else {
  await build();
}
