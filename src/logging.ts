/** The process logger: JSON lines (pino); the HTTP layer adds requestId to every request line. */
import pino, { type Logger } from 'pino';

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: 'bosun' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'req.headers["x-auth-token"]'], censor: '********' },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
