/**
 * TOSCA scalar-unit values ("512 MB", "1.75 GiB", "10 ms", "2.4 GHz", "1 Gbps") converted to a
 * number in the base unit (bytes, seconds, hertz, bits per second). Units are matched without
 * regard to case, as tosca-parser does (so "mb" is a megabyte, "MiB" a mebibyte); decimal
 * prefixes are powers of 10, binary ones powers of 2.
 */
import { ownValue } from '../../own-properties.ts';

export type ScalarKind = 'size' | 'time' | 'frequency' | 'bitrate';

const K = 1000;
const Ki = 1024;

const UNITS: Record<ScalarKind, Record<string, number>> = {
  size: {
    b: 1,
    kb: K,
    kib: Ki,
    mb: K ** 2,
    mib: Ki ** 2,
    gb: K ** 3,
    gib: Ki ** 3,
    tb: K ** 4,
    tib: Ki ** 4,
  },
  time: { d: 86400, h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 },
  frequency: { hz: 1, khz: 1e3, mhz: 1e6, ghz: 1e9 },
  bitrate: {
    bps: 1,
    kbps: K,
    kibps: Ki,
    mbps: K ** 2,
    mibps: Ki ** 2,
    gbps: K ** 3,
    gibps: Ki ** 3,
    tbps: K ** 4,
    tibps: Ki ** 4,
  },
};

// Bitrates in bytes per second ("MBps") are case-sensitive in TOSCA 1.3: B = byte, b = bit.
const BYTE_RATES: Record<string, number> = {
  Bps: 8,
  KBps: 8 * K,
  KiBps: 8 * Ki,
  MBps: 8 * K ** 2,
  MiBps: 8 * Ki ** 2,
  GBps: 8 * K ** 3,
  GiBps: 8 * Ki ** 3,
  TBps: 8 * K ** 4,
  TiBps: 8 * Ki ** 4,
};

export const SCALAR_TYPES: Record<string, ScalarKind> = {
  'scalar-unit.size': 'size',
  'scalar-unit.time': 'time',
  'scalar-unit.frequency': 'frequency',
  'scalar-unit.bitrate': 'bitrate',
};

const PATTERN = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*([A-Za-z]+)\s*$/;

export interface ScalarValue {
  /** The number as written. */
  number: number;
  /** The unit as written. */
  unit: string;
  /** The value in the base unit (bytes, seconds, Hz, bit/s). */
  base: number;
}

/** Parses a scalar-unit value; undefined when it is not one of `kind`. */
export function parseScalarUnit(value: unknown, kind: ScalarKind): ScalarValue | undefined {
  if (typeof value !== 'string') return undefined;
  const m = PATTERN.exec(value);
  if (!m) return undefined;
  const number = Number(m[1]);
  const unit = m[2];
  let factor: number | undefined;
  if (kind === 'bitrate' && ownValue(BYTE_RATES, unit) !== undefined) factor = BYTE_RATES[unit];
  else factor = ownValue(UNITS[kind], unit.toLowerCase());
  if (factor === undefined || !Number.isFinite(number)) return undefined;
  return { number, unit, base: number * factor };
}

/** Size in bytes, fractions of a byte truncated (as Tacker stores image sizes). */
export function toBytes(value: unknown): number | undefined {
  if (typeof value === 'number') return Math.trunc(value);
  const parsed = parseScalarUnit(value, 'size');
  return parsed ? Math.trunc(parsed.base) : undefined;
}

/** The units accepted for a kind, for messages. */
export function unitsOf(kind: ScalarKind): string {
  return kind === 'bitrate'
    ? `${Object.keys(UNITS.bitrate).join(', ')}, ${Object.keys(BYTE_RATES).join(', ')}`
    : Object.keys(UNITS[kind]).join(', ');
}
