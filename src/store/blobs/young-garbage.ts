/**
 * Streaming a large body allocates a buffer per chunk (Node's HTTP parser copies each one), and
 * V8 collects such buffers only when 64 MiB of them have piled up (its external-memory
 * trigger, a full collection each time). A young-generation collection every few MiB frees
 * them while they are still young: less memory, and far less collection work. It needs the
 * `gc` function, which V8 gives to contexts created after `--expose-gc` is set.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'minor' | 'major' }) => void;

let collect: Collect | null | undefined;

function collector(): Collect | null {
  if (collect !== undefined) return collect;
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (exposed) {
    collect = exposed;
    return collect;
  }
  try {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  } catch {
    collect = null;
  }
  return collect;
}

/** Runs a young-generation collection (a scavenge: about a millisecond). */
export function collectYoungGarbage(): void {
  collector()?.({ type: 'minor' });
}
