/**
 * Parses one Heat template of a package with its limits: bounded size and aliases, unique keys,
 * a mapping at the top. YAML 1.2, so `heat_template_version: 2013-05-23` stays a string as Heat
 * reads it.
 */
import { parse } from 'yaml';
import { hotError } from './hot-error.ts';
import { HOT_LIMITS, type HotLimits } from './limits.ts';

export const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Any YAML file of a BaseHOT folder, bounded. */
export function parseYaml(text: string, file: string, limits: HotLimits = HOT_LIMITS): unknown {
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.maxFileBytes) {
    throw hotError(file, `it is ${bytes} bytes; a template may have at most ${limits.maxFileBytes}.`);
  }
  try {
    return parse(text, {
      maxAliasCount: limits.maxAliases,
      uniqueKeys: true,
      merge: false,
      prettyErrors: false,
    });
  } catch (err) {
    throw hotError(file, `it is not valid YAML (${(err as Error).message.split('\n')[0]}).`);
  }
}

/** A Heat template: a mapping with a heat_template_version. */
export function parseHot(
  text: string,
  file: string,
  limits: HotLimits = HOT_LIMITS,
): Record<string, unknown> {
  const doc = parseYaml(text, file, limits);
  if (!isMapping(doc))
    throw hotError(file, 'it must be a YAML mapping (heat_template_version, resources, …).');
  if (doc.heat_template_version === undefined) {
    throw hotError(file, 'it has no heat_template_version: it is not a Heat (HOT) template.');
  }
  return doc;
}
