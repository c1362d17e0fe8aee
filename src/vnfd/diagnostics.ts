/**
 * Diagnostics: every problem found in a package, with a stable code, a message a VNF vendor can
 * act on, and where it is (file inside the package, line:column). Readers collect them all in
 * one pass instead of stopping at the first.
 */
export type Severity = 'error' | 'warning';

export interface Location {
  /** Path inside the package ('/'-separated, no leading './'). */
  file: string;
  /** 1-based; absent when the problem concerns the whole file. */
  line?: number;
  column?: number;
}

export interface Diagnostic extends Partial<Location> {
  /** Stable identifier, e.g. 'CSAR_PATH_TRAVERSAL', 'MANIFEST_HASH_MISMATCH', 'TOSCA_UNKNOWN_TYPE'. */
  code: string;
  severity: Severity;
  message: string;
}

export class Diagnostics {
  readonly list: Diagnostic[] = [];

  error(code: string, message: string, where?: Partial<Location>): void {
    this.list.push({ code, severity: 'error', message, ...where });
  }

  warning(code: string, message: string, where?: Partial<Location>): void {
    this.list.push({ code, severity: 'warning', message, ...where });
  }

  /** A problem Tacker accepts (a code of TOLERATED_CODES): a warning until strictness applies. */
  tolerated(code: ToleratedCode, message: string, where?: Partial<Location>): void {
    this.warning(code, message, where);
  }

  add(diagnostics: Iterable<Diagnostic>): void {
    for (const d of diagnostics) this.list.push(d);
  }

  get hasErrors(): boolean {
    return this.list.some((d) => d.severity === 'error');
  }

  get errors(): Diagnostic[] {
    return this.list.filter((d) => d.severity === 'error');
  }
}

/**
 * Problems real packages made for Tacker have and Tacker onboards: Bosun reports them as
 * warnings, and as errors under strict checking (`packages.strict`, `bosun package lint
 * --strict`). Code → what Tacker does with it.
 */
export const TOLERATED_CODES = {
  TOSCA_ARTIFACT_HOST_PATH:
    'tosca-parser looks an absolute artifact path up on the Tacker host (its built-in management drivers)',
  TOSCA_MAPPING_CONSTRAINT:
    'tosca-parser does not check substitution_mappings properties against constraints',
  TOSCA_DATA_TYPE_IN_NODE_TYPES: 'tosca-parser keeps every type section in one table',
  VNFD_SCALING_DELTA_UNKNOWN: 'Tacker fails only when the aspect is scaled',
} as const;

export type ToleratedCode = keyof typeof TOLERATED_CODES;

const STRICT_NOTE = ' (an error under strict package checking: packages.strict, lint --strict)';

/** The diagnostics with every tolerated problem made an error when `strict`. */
export function applyStrictness(list: readonly Diagnostic[], strict: boolean): Diagnostic[] {
  if (!strict) return [...list];
  return list.map((d) =>
    d.severity === 'warning' && Object.hasOwn(TOLERATED_CODES, d.code)
      ? { ...d, severity: 'error', message: d.message + STRICT_NOTE }
      : d,
  );
}

/** `file:line:column: error CODE: message` — the one-line form the CLI prints. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}: ` : '';
  return `${where}${d.severity} ${d.code}: ${d.message}`;
}
