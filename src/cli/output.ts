/**
 * How CLI commands print data: aligned tables for people, --json for scripts, and -q/--id-only
 * (the ids alone, one a line) on the commands that create or list records.
 */
import { type Command, Option } from 'commander';

export class CliError extends Error {
  override name = 'CliError';
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function printTable(rows: Record<string, unknown>[], columns: string[]): void {
  const cell = (v: unknown) =>
    v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const out = [
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => cell(r[c])))),
  ];
  process.stdout.write(out.join('\n') + '\n');
}

/** Prints `value` as JSON or through `human`, per the --json flag. */
export function emit(json: boolean | undefined, value: unknown, human: () => void): void {
  if (json) printJson(value);
  else human();
}

export interface OutputOptions {
  json?: boolean;
  idOnly?: boolean;
}

/** Adds -q/--id-only to a create or list command (which has --json). */
export function withIdOnly(command: Command): Command {
  return command.addOption(
    new Option('-q, --id-only', 'print only the id (of each record, one a line)').conflicts('json'),
  );
}

/** A created record or a list of records: its ids (--id-only), JSON (--json) or `human`. */
export function emitRecords<T>(
  opts: OutputOptions,
  value: T | readonly T[],
  human: () => void,
  idOf: (record: T) => unknown = (record) => (record as { id?: unknown }).id,
): void {
  if (!opts.idOnly) {
    emit(opts.json, value, human);
    return;
  }
  const records: readonly T[] = Array.isArray(value) ? value : [value as T];
  for (const record of records) process.stdout.write(`${String(idOf(record))}\n`);
}
