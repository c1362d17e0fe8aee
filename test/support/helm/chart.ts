/**
 * A packaged chart (.tgz) read as Helm reads it: Chart.yaml, values.yaml and templates/ of the
 * one top directory (subcharts are not supported), and its templates rendered into manifests
 * (each non-empty document, with Helm's `# Source:` comment; files starting with `_` only
 * define templates, NOTES.txt is not a manifest).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { parse, render } from './template.ts';

export interface Chart {
  metadata: { name: string; version: string; appVersion?: string; [k: string]: unknown };
  values: Record<string, unknown>;
  templates: Map<string, string>;
}

function untar(buf: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let off = 0;
  let longName: string | undefined;
  while (off + 512 <= buf.length) {
    const header = buf.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const field = (a: number, n: number) =>
      header
        .subarray(a, a + n)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const prefix = field(345, 155);
    let name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    longName = undefined;
    const body = buf.subarray(off + 512, off + 512 + size);
    if (type === 'L') longName = body.toString('utf8').replace(/\0.*$/s, '');
    else if (type === '0' || type === '') {
      name = name.replace(/^\.\//, '');
      files.set(name, Buffer.from(body));
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

export function loadChart(path: string): Chart {
  let files: Map<string, Buffer>;
  try {
    files = untar(gunzipSync(readFileSync(path)));
  } catch (e) {
    throw new Error(`failed to load chart: ${path}: ${(e as Error).message}`);
  }
  const meta = [...files.keys()].find((f) => /^[^/]+\/Chart\.yaml$/.test(f));
  if (!meta) throw new Error('Chart.yaml file is missing');
  const top = meta.split('/')[0] as string;
  const metadata = parseYaml(files.get(meta)?.toString('utf8') ?? '') as Chart['metadata'];
  const valuesFile = files.get(`${top}/values.yaml`);
  const values = (valuesFile ? parseYaml(valuesFile.toString('utf8')) : {}) ?? {};
  const templates = new Map<string, string>();
  for (const [name, body] of files) {
    if (name.startsWith(`${top}/templates/`))
      templates.set(name.slice(top.length + 1), body.toString('utf8'));
  }
  return { metadata, values, templates };
}

export interface Release {
  name: string;
  namespace: string;
  revision: number;
  service: string;
}

/** The manifest Helm would install: every rendered template's documents, in file order. */
export function renderChart(chart: Chart, values: Record<string, unknown>, release: Release): string {
  const defs = new Map<string, ReturnType<typeof parse>>();
  // NOTES.txt is shown, not applied: it is not read (its lines quote templates for the user).
  const parsed = [...chart.templates]
    .filter(([name]) => !name.endsWith('/NOTES.txt'))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, src]) => [name, parse(src, defs)] as const);
  const dot = {
    Values: values,
    Release: {
      Name: release.name,
      Namespace: release.namespace,
      Revision: release.revision,
      Service: release.service,
      IsInstall: release.revision === 1,
      IsUpgrade: release.revision > 1,
    },
    Chart: {
      ...Object.fromEntries(
        Object.entries(chart.metadata).map(([k, v]) => [k.charAt(0).toUpperCase() + k.slice(1), v]),
      ),
    },
    Capabilities: { KubeVersion: { Version: 'v1.30.0' } },
    Template: { BasePath: `${chart.metadata.name}/templates` },
  };
  const docs: string[] = [];
  for (const [name, nodes] of parsed) {
    const base = name.split('/').pop() as string;
    if (base.startsWith('_') || base === 'NOTES.txt' || !/\.(ya?ml|tpl|json)$/.test(base)) continue;
    const text = render(nodes, dot, defs);
    for (const doc of text.split(/^---\s*$/m)) {
      if (doc.trim() === '') continue;
      docs.push(`---\n# Source: ${chart.metadata.name}/${name}\n${doc.replace(/^\n+/, '').trimEnd()}\n`);
    }
  }
  return docs.join('');
}
