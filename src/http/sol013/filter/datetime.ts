/**
 * Strict RFC 3339 date-time parsing: Date.parse alone accepts 2026-02-30 and 24:00, which would
 * let nonsense through; filters compare instants, so offsets are applied here.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Epoch milliseconds (sub-millisecond digits truncated), or undefined if not a valid date-time. */
export function parseInstant(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const daysInMonth = mo === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[mo - 1];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Number(((m[7] ?? '.').slice(1) + '000').slice(0, 3));
  let offset = 0;
  if (m[9]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
  date.setUTCFullYear(y); // Date.UTC maps years 0-99 to 1900-1999
  return date.getTime() - offset;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}
