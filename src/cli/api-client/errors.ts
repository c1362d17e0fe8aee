/** One-line CLI errors from ProblemDetails answers and from failed connections. */
import { STATUS_CODES } from 'node:http';
import { CliError } from '../output.ts';
import type { Connection } from './connection.ts';

/** `<status> <title>: <detail>` from a ProblemDetails (or any) error response. */
export async function responseError(res: Response): Promise<CliError> {
  const text = await res.text().catch(() => '');
  let title = STATUS_CODES[res.status] ?? 'Error';
  let detail = text.replace(/\s+/g, ' ').trim().slice(0, 500);
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body.title === 'string' && body.title) title = body.title;
    // ProblemDetails has detail; an OAuth 2.0 error has error and error_description.
    if (typeof body.detail === 'string') detail = body.detail;
    else if (typeof body.error_description === 'string') detail = body.error_description;
    else if (typeof body.error === 'string') detail = body.error;
  } catch {
    // Not JSON: keep the text.
  }
  return new CliError(`${res.status} ${title}: ${detail || '(no detail)'}`.replace(/\s*\n\s*/g, ' '));
}

/**
 * A fetch failure (connection refused, DNS, TLS…) as one line naming the server, where its URL
 * came from (`--url`, `BOSUN_URL`, the configuration) and how to name another.
 */
export function connectionError(conn: Pick<Connection, 'url' | 'source'>, err: unknown): CliError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const server = `${conn.url} (from ${conn.source})`;
  const elsewhere = '--url or BOSUN_URL names another server';
  if (cause?.code === 'ECONNREFUSED') {
    return new CliError(
      `cannot connect to ${server}: connection refused; is the Bosun server running? (${elsewhere})`,
    );
  }
  const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  return new CliError(`cannot reach ${server}: ${why} (${elsewhere})`);
}
