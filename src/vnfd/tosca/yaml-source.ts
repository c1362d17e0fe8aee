/**
 * YAML → plain JS values that remember where they were written. Package YAML is untrusted, so
 * parsing is bounded: alias expansions (billion-laughs), nesting depth and node count are
 * limited, and every problem becomes a diagnostic with file:line:column instead of an exception.
 *
 * Locations are kept out of band: each object/array produced maps to its own location and to the
 * locations of its entries (see `locOf`, `keyLoc`, `valueLoc`), so the rest of the loader works
 * on ordinary values.
 */
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
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

type YamlDocument = ReturnType<typeof parseDocument>;

export function parseYaml(text: string, file: string, limits: Partial<YamlLimits> = {}): ParsedYaml {
  const diagnostics: Diagnostic[] = [];
  const lineCounter = new LineCounter();
  const at = (offset: number | undefined): Location => {
    if (offset === undefined) return { file };
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const max = { ...DEFAULT_YAML_LIMITS, ...limits };
  const first = parseFirst(text, file, max, lineCounter, diagnostics);
  if (!first) return { diagnostics };
  const doc = reparseLeniently(first, text, file, lineCounter, diagnostics);
  for (const e of doc.errors) {
    const pos = e.linePos?.[0];
    diagnostics.push({
      code: e.code === 'DUPLICATE_KEY' ? 'YAML_DUPLICATE_KEY' : 'YAML_SYNTAX',
      severity: 'error',
      ...(pos ? { file, line: pos.line, column: pos.col } : at(e.pos[0])),
      message: `${file} is not valid YAML: ${e.message.split('\n')[0]}`,
    });
  }
  if (doc.errors.length > 0) return { diagnostics };
  return convertDocument({ doc, file, max, at, aliases: 0, nodes: 0 }, diagnostics);
}

/** The document as the parser reads it (its errors still in it); undefined when the parser threw. */
function parseFirst(
  text: string,
  file: string,
  max: YamlLimits,
  lineCounter: LineCounter,
  diagnostics: Diagnostic[],
): YamlDocument | undefined {
  try {
    return parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: false });
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
    return undefined;
  }
}

/**
 * PyYAML (and so Tacker) accepts flow collections continued at any indentation, and the SOL001
 * files shipped in real packages rely on it: when that is the problem, re-indent such lines and
 * parse again. The second document (with a warning, `lineCounter` then counting its lines)
 * when it has no error, else `doc`.
 */
function reparseLeniently(
  doc: YamlDocument,
  text: string,
  file: string,
  lineCounter: LineCounter,
  diagnostics: Diagnostic[],
): YamlDocument {
  if (!doc.errors.some((e) => LENIENT_CODES.has(e.code))) return doc;
  const repaired = indentFlowContinuations(text);
  if (repaired === text) return doc;
  const counter = new LineCounter();
  const second = parseDocument(repaired, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  if (second.errors.length !== 0) return doc;
  const first = doc.errors.find((e) => LENIENT_CODES.has(e.code));
  const pos = first ? lineCounter.linePos(first.pos[0]) : undefined;
  diagnostics.push({
    code: 'YAML_FLOW_INDENT',
    severity: 'warning',
    ...(pos ? { file, line: pos.line, column: pos.col } : { file }),
    message:
      'a flow collection ([…] or {…}) continues on a line that is not indented; YAML 1.2 requires it to be (accepted, as PyYAML does)',
  });
  lineCounter.lineStarts.length = 0;
  lineCounter.lineStarts.push(...counter.lineStarts);
  return second;
}

/** A conversion of a parsed document to plain values: its limits and what it has used of them. */
interface Conversion {
  doc: YamlDocument;
  file: string;
  max: YamlLimits;
  at: (offset: number | undefined) => Location;
  aliases: number;
  nodes: number;
}

/** The document's value; a limit exceeded (or a stack too deep) is a diagnostic instead. */
function convertDocument(c: Conversion, diagnostics: Diagnostic[]): ParsedYaml {
  try {
    return { value: c.doc.contents === null ? null : convert(c, c.doc.contents, 1), diagnostics };
  } catch (err) {
    if (err instanceof LimitError) {
      diagnostics.push({ code: err.code, severity: 'error', ...err.at, message: err.message });
      return { diagnostics };
    }
    if (err instanceof RangeError) {
      diagnostics.push({
        code: 'YAML_TOO_DEEP',
        severity: 'error',
        file: c.file,
        message: `${c.file} is nested too deeply to be read`,
      });
      return { diagnostics };
    }
    throw err;
  }
}

function convert(c: Conversion, node: unknown, depth: number): unknown {
  if (++c.nodes > c.max.maxNodes) {
    throw new LimitError(
      'YAML_TOO_LARGE',
      `${c.file} holds more than ${c.max.maxNodes} values`,
      c.at(rangeOf(node)),
    );
  }
  if (isAlias(node)) {
    if (++c.aliases > c.max.maxAliases) {
      throw new LimitError(
        'YAML_ALIAS_LIMIT',
        `${c.file} uses more than ${c.max.maxAliases} alias references (possible "billion laughs" alias bomb)`,
        c.at(node.range?.[0]),
      );
    }
    return convert(c, node.resolve(c.doc), depth);
  }
  if (isScalar(node)) return node.value;
  if (isMap(node) || isSeq(node)) {
    if (depth > c.max.maxDepth) {
      throw new LimitError(
        'YAML_TOO_DEEP',
        `${c.file} is nested more than ${c.max.maxDepth} levels deep`,
        c.at(node.range?.[0]),
      );
    }
    const info: SourceInfo = { loc: c.at(node.range?.[0]), keys: new Map(), values: new Map() };
    return isSeq(node) ? convertSeq(c, node, depth, info) : convertMap(c, node, depth, info);
  }
  return node ?? null;
}

function convertSeq(c: Conversion, node: YAMLSeq, depth: number, info: SourceInfo): unknown[] {
  const out: unknown[] = [];
  infos.set(out, info);
  node.items.forEach((item, i) => {
    info.keys.set(i, c.at(rangeOf(item)));
    info.values.set(i, c.at(rangeOf(item)));
    out.push(convert(c, item, depth + 1));
  });
  return out;
}

function convertMap(c: Conversion, node: YAMLMap, depth: number, info: SourceInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  infos.set(out, info);
  for (const pair of node.items) {
    if (!isPair(pair)) continue;
    const k = isScalar(pair.key) ? String(pair.key.value) : String(convert(c, pair.key, depth + 1));
    info.keys.set(k, c.at(rangeOf(pair.key)));
    info.values.set(k, c.at(rangeOf(pair.value) ?? rangeOf(pair.key)));
    Object.defineProperty(out, k, {
      value: pair.value === null ? null : convert(c, pair.value, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
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
