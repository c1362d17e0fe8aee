/**
 * The lines of the package an onboarding error points at, kept with the failure: the package's
 * bytes are removed when onboarding fails, and whoever reads the failure (the console, a user of
 * the API) should see the offending VNFD lines without the package at hand. Bounded: a few
 * errors, a few lines each, each line cut short — package content is untrusted and is stored.
 */
import { openZipPackage } from '../vnfd/csar/zip-reader.ts';
import type { Diagnostic } from '../vnfd/diagnostics.ts';

/** The lines around a diagnostic's line: `lines[0]` is line `firstLine` of the file. */
export interface Excerpt {
  firstLine: number;
  lines: string[];
}

export type ExcerptedDiagnostic = Diagnostic & { excerpt?: Excerpt };

const MAX_EXCERPTS = 5;
const CONTEXT_LINES = 3;
const MAX_LINE_CHARS = 240;
/** Larger files are not read for an excerpt (a VNFD is a few kilobytes). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export function excerptOf(text: string, line: number): Excerpt | undefined {
  const all = text.split(/\r?\n/);
  if (line < 1 || line > all.length) return undefined;
  const first = Math.max(1, line - CONTEXT_LINES);
  const last = Math.min(all.length, line + CONTEXT_LINES);
  const lines = all
    .slice(first - 1, last)
    .map((l) => (l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l));
  return { firstLine: first, lines };
}

/** The diagnostics, the first errors with a file and line given their excerpt. */
export async function withExcerpts(
  zipPath: string,
  diagnostics: Diagnostic[],
): Promise<ExcerptedDiagnostic[]> {
  const wanted = diagnostics.filter((d) => d.severity === 'error' && d.file && d.line).slice(0, MAX_EXCERPTS);
  if (!wanted.length) return diagnostics;
  let opened: Awaited<ReturnType<typeof openZipPackage>>;
  try {
    opened = await openZipPackage(zipPath);
  } catch {
    return diagnostics;
  }
  const files = opened.files;
  if (!files) return diagnostics;
  const excerpts = new Map<Diagnostic, Excerpt>();
  try {
    const texts = new Map<string, string | undefined>();
    for (const d of wanted) {
      const file = d.file!;
      if (!texts.has(file)) {
        const readable = files.has(file) && files.size(file) <= MAX_FILE_BYTES;
        texts.set(file, readable ? await files.readText(file).catch(() => undefined) : undefined);
      }
      const text = texts.get(file);
      const excerpt = text === undefined ? undefined : excerptOf(text, d.line!);
      if (excerpt) excerpts.set(d, excerpt);
    }
  } finally {
    await files.close();
  }
  return diagnostics.map((d) => {
    const excerpt = excerpts.get(d);
    return excerpt ? { ...d, excerpt } : d;
  });
}
