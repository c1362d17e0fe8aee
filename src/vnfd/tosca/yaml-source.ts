/**
 * YAML → plain JS values that remember where they were written. Package YAML is untrusted, so
 * parsing is bounded: alias expansions (billion-laughs), nesting depth and node count are
 * limited, and every problem becomes a diagnostic with file:line:column instead of an exception.
 *
 * Locations are kept out of band: each object/array produced maps to its own location and to the
 * locations of its entries (see `locOf`, `keyLoc`, `valueLoc`), so the rest of the loader works
 * on ordinary values.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { Diagnostic, Location } from '../diagnostics.ts';

export interface YamlLimits {
  /** Alias (`*name`) expansions per document. */
  maxAliases: number;
  /** Nesting depth of collections. */
  maxDepth: number;
  /** Total values produced (after alias expansion). */
  maxNodes: number;
}

export const DEFAULT_YAML_LIMITS: YamlLimits = { maxAliases: 100, maxDepth: 64, maxNodes: 1_000_000 };

interface SourceInfo {
  loc: Location;
  /** Where each entry's key (maps) or item (sequences) starts. */
  keys: Map<string | number, Location>;
  /** Where each entry's value starts. */
  values: Map<string | number, Location>;
}

const infos = new WeakMap<object, SourceInfo>();

/** Where a map or list parsed by `parseYaml` was written. */
export function locOf(value: unknown): Location | undefined {
  return typeof value === 'object' && value !== null ? infos.get(value)?.loc : undefined;
}

/** Where the key `key` of a parsed map (or item `key` of a list) was written. */
export function keyLoc(container: unknown, key: string | number): Location | undefined {
  if (typeof container !== 'object' || container === null) return undefined;
  return infos.get(container)?.keys.get(key);
}

/** Where the value at `key` of a parsed map (or item `key` of a list) was written. */
export function valueLoc(container: unknown, key: string | number): Location | undefined {
  if (typeof container !== 'object' || container === null) return undefined;
  return infos.get(container)?.values.get(key);
}

/** Attaches a location to an object built by the loader (e.g. a bundled type). */
export function setLoc(value: object, loc: Location): void {
  if (!infos.has(value)) infos.set(value, { loc, keys: new Map(), values: new Map() });
}

/** Gives `to` (a value rebuilt from `from`) the locations recorded for `from`. */
export function copyLoc<T>(to: T, from: unknown): T {
  if (typeof to === 'object' && to !== null && typeof from === 'object' && from !== null && to !== from) {
    const info = infos.get(from);
    if (info && !infos.has(to)) infos.set(to, info);
  }
  return to;
}

export interface ParsedYaml {
  /** Absent when the document could not be read (the diagnostics say why). */
  value?: unknown;
  diagnostics: Diagnostic[];
}

class LimitError extends Error {
  readonly code: string;
  readonly at: Location;
  constructor(code: string, message: string, at: Location) {
    super(message);
    this.code = code;
    this.at = at;
  }
}

export function parseYaml(text: string, file: string, limits: Partial<YamlLimits> = {}): ParsedYaml {
  const max = { ...DEFAULT_YAML_LIMITS, ...limits };
  const diagnostics: Diagnostic[] = [];
  const lineCounter = new LineCounter();
  const at = (offset: number | undefined): Location => {
    if (offset === undefined) return { file };
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  let doc: ReturnType<typeof parseDocument>;
  // (Reassigned when a lenient second parse succeeds.)
  try {
    doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: false });
  } catch (err) {
    // The parser recurses on nesting; absurd depth ends in a stack overflow.
    const tooDeep = err instanceof RangeError;
    diagnostics.push({
      code: tooDeep ? 'YAML_TOO_DEEP' : 'YAML_SYNTAX',
      severity: 'error',
      file,
      message: tooDeep
        ? `${file} is nested too deeply to be read (more than ${max.maxDepth} levels)`
        : `${file} is not valid YAML: ${(err as Error).message}`,
    });
    return { diagnostics };
  }
  if (doc.errors.some((e) => LENIENT_CODES.has(e.code))) {
    // PyYAML (and so Tacker) accepts flow collections continued at any indentation, and the
    // SOL001 files shipped in real packages rely on it: re-indent such lines and try again.
    const repaired = indentFlowContinuations(text);
    if (repaired !== text) {
      const counter = new LineCounter();
      const second = parseDocument(repaired, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
      if (second.errors.length === 0) {
        const first = doc.errors.find((e) => LENIENT_CODES.has(e.code));
        const pos = first ? lineCounter.linePos(first.pos[0]) : undefined;
        diagnostics.push({
          code: 'YAML_FLOW_INDENT',
          severity: 'warning',
          ...(pos ? { file, line: pos.line, column: pos.col } : { file }),
          message:
            'a flow collection ([…] or {…}) continues on a line that is not indented; YAML 1.2 requires it to be (accepted, as PyYAML does)',
        });
        doc = second;
        lineCounter.lineStarts.length = 0;
        lineCounter.lineStarts.push(...counter.lineStarts);
      }
    }
  }
  for (const e of doc.errors) {
    const pos = e.linePos?.[0];
    const first = e.message.split('\n')[0];
    diagnostics.push({
      code: e.code === 'DUPLICATE_KEY' ? 'YAML_DUPLICATE_KEY' : 'YAML_SYNTAX',
      severity: 'error',
      ...(pos ? { file, line: pos.line, column: pos.col } : at(e.pos[0])),
      message: `${file} is not valid YAML: ${first}`,
    });
  }
  if (doc.errors.length > 0) return { diagnostics };

  let aliases = 0;
  let nodes = 0;
  const convert = (node: unknown, depth: number): unknown => {
    if (++nodes > max.maxNodes) {
      throw new LimitError(
        'YAML_TOO_LARGE',
        `${file} holds more than ${max.maxNodes} values`,
        at(rangeOf(node)),
      );
    }
    if (isAlias(node)) {
      if (++aliases > max.maxAliases) {
        throw new LimitError(
          'YAML_ALIAS_LIMIT',
          `${file} uses more than ${max.maxAliases} alias references (possible "billion laughs" alias bomb)`,
          at(node.range?.[0]),
        );
      }
      return convert(node.resolve(doc), depth);
    }
    if (isScalar(node)) return node.value;
    if (isMap(node) || isSeq(node)) {
      if (depth > max.maxDepth) {
        throw new LimitError(
          'YAML_TOO_DEEP',
          `${file} is nested more than ${max.maxDepth} levels deep`,
          at(node.range?.[0]),
        );
      }
      const info: SourceInfo = { loc: at(node.range?.[0]), keys: new Map(), values: new Map() };
      if (isSeq(node)) {
        const out: unknown[] = [];
        infos.set(out, info);
        node.items.forEach((item, i) => {
          info.keys.set(i, at(rangeOf(item)));
          info.values.set(i, at(rangeOf(item)));
          out.push(convert(item, depth + 1));
        });
        return out;
      }
      const out: Record<string, unknown> = {};
      infos.set(out, info);
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const k = isScalar(pair.key) ? String(pair.key.value) : String(convert(pair.key, depth + 1));
        info.keys.set(k, at(rangeOf(pair.key)));
        info.values.set(k, at(rangeOf(pair.value) ?? rangeOf(pair.key)));
        Object.defineProperty(out, k, {
          value: pair.value === null ? null : convert(pair.value, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return node ?? null;
  };
  try {
    return { value: doc.contents === null ? null : convert(doc.contents, 1), diagnostics };
  } catch (err) {
    if (err instanceof LimitError) {
      diagnostics.push({ code: err.code, severity: 'error', ...err.at, message: err.message });
      return { diagnostics };
    }
    if (err instanceof RangeError) {
      diagnostics.push({
        code: 'YAML_TOO_DEEP',
        severity: 'error',
        file,
        message: `${file} is nested too deeply to be read`,
      });
      return { diagnostics };
    }
    throw err;
  }
}

const LENIENT_CODES = new Set(['BAD_INDENT', 'MULTILINE_IMPLICIT_KEY']);

/**
 * Indents lines that continue a flow collection opened on an earlier line, one column past
 * the bracket that opened it. Inside a flow collection leading white space is not content, so
 * values are unchanged (line numbers are kept; columns shift on the re-indented lines only).
 */
export function indentFlowContinuations(text: string): string {
  const lines = text.split('\n');
  let depth = 0;
  let openerColumn = 0;
  let quote: '"' | "'" | undefined;
  for (let n = 0; n < lines.length; n++) {
    let line = lines[n];
    if (depth > 0 && quote === undefined) {
      const stripped = line.replace(/^[ \t]*/, '');
      line = ' '.repeat(openerColumn + 1) + stripped;
      lines[n] = line;
    }
    let valueStart = true;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (quote === '"' && c === '\\') i++;
        else if (c === quote) {
          if (quote === "'" && line[i + 1] === "'") i++;
          else quote = undefined;
        }
        continue;
      }
      if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) break;
      if ((c === '"' || c === "'") && (depth > 0 || valueStart)) {
        quote = c;
        continue;
      }
      if ((c === '[' || c === '{') && (depth > 0 || valueStart)) {
        if (depth === 0) openerColumn = i;
        depth++;
      } else if ((c === ']' || c === '}') && depth > 0) depth--;
      if (c === ' ' || c === '\t') continue;
      valueStart =
        (c === ':' || c === '-' || c === ',' || c === '[' || c === '{') &&
        (line[i + 1] === ' ' || line[i + 1] === undefined || c === ',' || c === '[' || c === '{');
    }
  }
  return lines.join('\n');
}

function rangeOf(node: unknown): number | undefined {
  return (node as Node | null | undefined)?.range?.[0];
}
