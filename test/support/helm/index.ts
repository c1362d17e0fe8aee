/**
 * The stand-in helm (main.ts) as an executable: a small sh wrapper, written in a temp folder,
 * that runs it with this process's Node, so that it is spawned as the real binary would be.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp.ts';

const MAIN = join(import.meta.dirname, 'main.ts');

const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** The path of an executable `helm` that runs the stand-in. */
export function standInHelm(): string {
  const file = join(tempDir('bosun-helm-'), 'helm');
  writeFileSync(file, `#!/bin/sh\nexec ${quoted(process.execPath)} ${quoted(MAIN)} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}
