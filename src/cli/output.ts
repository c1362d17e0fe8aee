/** How CLI commands print data: aligned tables for people, --json for scripts. */

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
