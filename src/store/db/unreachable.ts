/**
 * Which failures mean "the database cannot be reached right now" (server down, restarting,
 * refusing connections, or a connection that does not come within the pool's timeout), as
 * opposed to a query that is wrong. The API answers the first class 503 with Retry-After, as a
 * passing condition the client retries, instead of 500.
 */

/** Node's socket errors for a server that is not there or went away. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * PostgreSQL SQLSTATEs of class 08 (connection exception) and 57P01–57P03 (the server is shutting
 * down, crashed or is starting up: admin_shutdown, crash_shutdown, cannot_connect_now).
 */
const isUnreachableSqlState = (code: string) => code.startsWith('08') || /^57P0[1-3]$/.test(code);

/** pg's own words when a connection ends or cannot be had in time (it gives these no code). */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection terminated unexpectedly',
];

export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || isUnreachableSqlState(code))) return true;
  if (PG_MESSAGES.some((m) => error.message.startsWith(m))) return true;
  // A refused connection to a host with several addresses arrives as an AggregateError.
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnreachable(e, depth + 1)))
    return true;
  return isDatabaseUnreachable(error.cause, depth + 1);
}
