/**
 * A progress bar on stderr for uploads and downloads: bytes, percent when the size is known,
 * rate. Drawn only when stderr is a terminal and --quiet is not given.
 */
import { Transform } from 'node:stream';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(n: number): string {
  let i = 0;
  while (n >= 1024 && i < UNITS.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i === 0 ? n : n.toFixed(1)} ${UNITS[i]}`;
}

export interface ProgressOptions {
  label: string;
  /** Total bytes, when known. */
  total?: number;
  quiet?: boolean;
  stream?: NodeJS.WriteStream;
}

/** A pass-through stream that counts the bytes flowing through it and draws the bar. */
export function progressStream(options: ProgressOptions): Transform {
  const out = options.stream ?? process.stderr;
  const enabled = !options.quiet && out.isTTY === true;
  const started = Date.now();
  let bytes = 0;
  let drawn = 0;
  const draw = (final: boolean) => {
    const now = Date.now();
    if (!final && now - drawn < 100) return;
    drawn = now;
    const seconds = Math.max((now - started) / 1000, 0.001);
    const rate = `${formatBytes(bytes / seconds)}/s`;
    const { total } = options;
    let bar = '';
    if (total && total > 0) {
      const ratio = Math.min(bytes / total, 1);
      const width = 30;
      const full = Math.round(ratio * width);
      bar = `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(ratio * 100).toFixed(0).padStart(3)}% `;
    }
    const size = total ? `${formatBytes(bytes)} / ${formatBytes(total)}` : formatBytes(bytes);
    out.write(`\r\x1b[K${options.label} ${bar}${size} ${rate}${final ? '\n' : ''}`);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (enabled) draw(false);
      callback(null, chunk);
    },
    flush(callback) {
      if (enabled) draw(true);
      callback();
    },
  });
}
