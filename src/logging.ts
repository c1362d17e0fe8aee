/**
 * The process logger: JSON lines (pino); the HTTP layer adds requestId to every request line.
 * Request lines carry method, URL and remote address only — never headers, so never tokens.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

/** Lines wait at most this long in the buffer (under load they leave in 4 KiB writes). */
const FLUSH_INTERVAL_MS = 200;

/**
 * An asynchronous, buffered destination: one write syscall per 4 KiB instead of one per line
 * (the per-line write cost half of a small request's time), flushed at least every 200 ms so
 * that a quiet server's lines still appear promptly; pino flushes it when the process exits.
 */
export function bufferedDestination(target: number | string): DestinationStream {
  const stream = typeof target === 'number' ? { fd: target } : { dest: target };
  const destination = pino.destination({ ...stream, sync: false, minLength: 4096 });
  const state = destination as unknown as { destroyed: boolean; _len: number };
  setInterval(() => {
    if (!state.destroyed && state._len > 0) destination.flush();
  }, FLUSH_INTERVAL_MS).unref();
  return destination;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'bosun' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? bufferedDestination(1),
  );
}
