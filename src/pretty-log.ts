/**
 * Readable log lines for a person at a terminal (`bosun serve --pretty`): pino's JSON lines
 * turned into `time LEVEL message method url status key=value…`, an error's stack indented
 * below its line, levels coloured on a terminal. Our own few lines rather than pino-pretty: one
 * dependency less, and the JSON lines stay the format for machines.
 */
import type { DestinationStream } from 'pino';

const LEVELS: Record<number, { label: string; color: number }> = {
  10: { label: 'TRACE', color: 90 },
  20: { label: 'DEBUG', color: 36 },
  30: { label: 'INFO', color: 32 },
  40: { label: 'WARN', color: 33 },
  50: { label: 'ERROR', color: 31 },
  60: { label: 'FATAL', color: 35 },
};

/** Fields every line has (shown in the line's head, or not at all). */
const HIDDEN = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname', 'err']);
/** Fields shown bare after the message, in this order (an access-log line reads as a request). */
const BARE = ['method', 'url', 'status'];

/**
 * Control characters escaped as in JSON: a value from a request (a URL, a header-derived message)
 * can neither break the line nor send escape sequences to the operator's terminal.
 */
const bare = (v: unknown) => String(v).replace(/\p{Cc}/gu, (c) => JSON.stringify(c).slice(1, -1));

const value = (v: unknown) =>
  typeof v === 'string' ? (/[\s"=\p{Cc}]/u.test(v) || v === '' ? JSON.stringify(v) : v) : JSON.stringify(v);

/** `HH:MM:SS.mmm` of an ISO time (or of an epoch ms), else the value as it is. */
function clock(time: unknown): string {
  const date = new Date(time as string | number);
  return Number.isNaN(date.getTime()) ? String(time ?? '') : date.toISOString().slice(11, 23);
}

/** One JSON log line as readable text (several lines when it carries an error's stack). */
export function formatLogLine(json: string, color = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const level = LEVELS[entry.level as number] ?? { label: String(entry.level), color: 0 };
  const label = level.label.padEnd(5);
  const parts = [clock(entry.time), color ? `\x1b[${level.color}m${label}\x1b[0m` : label];
  if (entry.msg !== undefined) parts.push(bare(entry.msg));
  for (const key of BARE) if (entry[key] !== undefined) parts.push(bare(entry[key]));
  for (const [key, v] of Object.entries(entry)) {
    if (!HIDDEN.has(key) && !BARE.includes(key) && v !== undefined) parts.push(`${bare(key)}=${value(v)}`);
  }
  const err = entry.err as { message?: string; stack?: string } | undefined;
  if (!err) return parts.join(' ');
  if (err.message) parts.push(`err=${value(err.message)}`);
  const stack =
    err.stack
      ?.split('\n')
      .slice(1)
      .map((l) => `    ${bare(l.trim())}`) ?? [];
  return [parts.join(' '), ...stack].join('\n');
}

/** A pino destination writing readable lines to `out` (coloured when it is a terminal). */
export function prettyDestination(out: NodeJS.WriteStream = process.stdout): DestinationStream {
  const color = out.isTTY === true;
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) out.write(`${formatLogLine(line, color)}\n`);
    },
  };
}
