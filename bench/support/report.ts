/** How every benchmark prints its results: a title, then one aligned row per measurement. */

/** What was measured, the number, and what it compares to (target, Tacker, the conditions). */
export type Row = [string, string, string];

export function printRows(title: string, rows: readonly Row[]): void {
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  process.stdout.write(`\n${title}\n\n`);
  for (const r of rows) {
    process.stdout.write(
      `${r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd()}\n`,
    );
  }
}
