/**
 * Temporary folders of a test process, each removed when the process exits — whether its tests
 * passed, failed or threw — so that the test suite leaves nothing in the system's temp folder.
 * A fixture that removes its folder earlier (a cleanup() it returns) may: removal is forced.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new folder `<tmpdir>/<prefix>XXXXXX`, removed at exit. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}
