/**
 * Readers for property values as the TOSCA loader hands them over (`unknown`): the loader
 * has checked types where the VNFD declared them, but derived or custom types may leave
 * anything, so the model reads defensively and never throws.
 */

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function rec(v: unknown): Record<string, unknown> {
  return isRecord(v) ? v : {};
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  // YAML turns 1.0 into a number; VNFD versions are strings in SOL001.
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

export function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

export function strList(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.map(str).filter((s): s is string => s !== undefined);
}

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  kib: 2 ** 10,
  mb: 1e6,
  mib: 2 ** 20,
  gb: 1e9,
  gib: 2 ** 30,
  tb: 1e12,
  tib: 2 ** 40,
};

/**
 * A TOSCA scalar-unit.size in bytes, as Tacker computes it: decimal units are powers of 10,
 * binary ones powers of 2, fractions truncated. A number is taken as bytes already (what the
 * loader gives for normalised scalars). Undefined when the value is not a size.
 */
export function sizeBytes(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*([0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]+)?\s*$/.exec(v);
  if (!m) return undefined;
  const factor = m[2] === undefined ? 1 : UNITS[m[2].toLowerCase()];
  if (factor === undefined) return undefined;
  return Math.trunc(Number(m[1]) * factor);
}
