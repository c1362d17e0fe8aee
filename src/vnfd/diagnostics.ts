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

/** `file:line:column: error CODE: message` — the one-line form the CLI prints. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}: ` : '';
  return `${where}${d.severity} ${d.code}: ${d.message}`;
}
