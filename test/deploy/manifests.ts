/**
 * The Kubernetes manifests of deploy/kubernetes/ as the tests read them: the files the
 * kustomization names, parsed, and the pieces the checks need (containers, BOSUN_* variables).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import type { Obj } from '../support/kube-api/store.ts';

export const KUBERNETES_DIR = new URL('../../deploy/kubernetes/', import.meta.url).pathname;

/** A Kubernetes object as written in a manifest. */
export type Manifest = Obj;

/** Every object of the kustomization, in its order. */
export function manifests(): Manifest[] {
  const kustomization = parse(readFileSync(join(KUBERNETES_DIR, 'kustomization.yaml'), 'utf8')) as {
    resources: string[];
  };
  return kustomization.resources.flatMap((file) =>
    parseAllDocuments(readFileSync(join(KUBERNETES_DIR, file), 'utf8')).map((d) => d.toJS() as Manifest),
  );
}

export const byKind = (all: Manifest[], kind: string) => all.filter((m) => m.kind === kind);

export function named(all: Manifest[], kind: string, name: string): Manifest {
  const found = all.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes/`);
  return found;
}

/** The BOSUN_* variables the manifests set: ConfigMap data, Secret stringData/data, containers' env. */
export function bosunVariables(all: Manifest[]): string[] {
  const names = [
    ...byKind(all, 'ConfigMap').flatMap((m) => Object.keys(m.data ?? {})),
    ...byKind(all, 'Secret').flatMap((m) => [
      ...Object.keys(m.stringData ?? {}),
      ...Object.keys(m.data ?? {}),
    ]),
    ...all
      .flatMap((m) => m.spec?.template?.spec?.containers ?? [])
      .flatMap((c: Manifest) => (c.env ?? []).map((e: Manifest) => String(e.name))),
  ];
  return [...new Set(names)].filter((n) => n.startsWith('BOSUN_'));
}
