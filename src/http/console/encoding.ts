/**
 * Picks the precompressed variant of a file the client accepts (brotli, then gzip), from
 * Accept-Encoding; `q=0` refuses an encoding.
 */
import type { BuiltFile } from './built-files.ts';

export type Encoding = 'br' | 'gzip' | 'identity';

function accepted(header: string): Set<string> {
  const names = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    if (name) names.add(name);
  }
  return names;
}

export function chooseEncoding(file: BuiltFile, acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const names = accepted(acceptEncoding);
  if (file.br && (names.has('br') || names.has('*'))) return 'br';
  if (file.gzip && (names.has('gzip') || names.has('*'))) return 'gzip';
  return 'identity';
}
