/** Repeated `--option key=value` flags: how commander collects them and what they become. */
import { CliError } from './output.ts';

/** Commander's collector for an option given several times. */
export const collect = (value: string, previous: string[]) => [...previous, value];

/**
 * How a value is read: `json` takes any valid JSON as JSON (`'"7"'` is the string 7), `json-like`
 * only values that look like JSON (an object, array, boolean, null or number), `text` none.
 */
export type ValueParsing = 'json' | 'json-like' | 'text';

const JSON_LIKE = /^[[{]|^(true|false|null|-?\d+(\.\d+)?)$/;

function parsedValue(raw: string, parsing: ValueParsing): unknown {
  if (parsing === 'text' || (parsing === 'json-like' && !JSON_LIKE.test(raw))) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** `k=v` pairs into an object; `option` names the flag in the error for a pair without `=`. */
export function keyValues(pairs: string[], option: string, parsing: 'text'): Record<string, string>;
export function keyValues(pairs: string[], option: string, parsing?: ValueParsing): Record<string, unknown>;
export function keyValues(
  pairs: string[],
  option: string,
  parsing: ValueParsing = 'json',
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(`${option} expects key=value, got '${pair}'`);
    out[pair.slice(0, eq)] = parsedValue(pair.slice(eq + 1), parsing);
  }
  return out;
}
