/**
 * The process logger: JSON lines (pino); the HTTP layer adds requestId to every request line.
 * Request lines carry method, URL and remote address only — never headers, so never tokens.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'bosun' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
