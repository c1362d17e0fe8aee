/**
 * A Helm request's parameters as Tacker names them: `helm_chart_path` (a chart .tgz of the
 * package), `helm_parameters` (values set with --set), `helm_value_names` (per VDU, the values
 * key holding its replicas: `{ VDU1: { replica: "replicaCountVdu1" } }`). And the release name
 * of an instance: derived from its id, so that a retry finds the same release.
 */
import { InfraError } from '../../../contract.ts';

const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const invalid = (message: string) => new InfraError('INVALID_REQUEST', message);

/** A values key Helm's --set reads as a path (no `=` or `,` that would change its meaning). */
const KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** Helm's release name (DNS-1123, at most 53 characters) of an instance. */
export const releaseName = (instanceId: string) =>
  `vnf-${instanceId.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`.slice(0, 53).replace(/-+$/, '');

export function chartPath(additionalParams: Record<string, unknown> | undefined): string | undefined {
  const path = additionalParams?.helm_chart_path;
  if (path === undefined) return undefined;
  if (typeof path !== 'string' || path === '') {
    throw invalid('additionalParams.helm_chart_path must be the path of a chart (.tgz) in the VNF package.');
  }
  return path;
}

/** Each VDU's replica key. */
export function valueNames(additionalParams: Record<string, unknown> | undefined): Record<string, string> {
  const names = additionalParams?.helm_value_names;
  if (!isMapping(names)) {
    throw invalid(
      'A Helm chart request needs additionalParams.helm_value_names: per VDU, the values key of its replicas (e.g. {"VDU1": {"replica": "replicaCountVdu1"}}).',
    );
  }
  const out: Record<string, string> = {};
  for (const [vduId, entry] of Object.entries(names)) {
    const key = isMapping(entry) ? entry.replica : undefined;
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw invalid(
        `additionalParams.helm_value_names.${vduId}.replica must be a values key (e.g. replicaCount).`,
      );
    }
    out[vduId] = key;
  }
  return out;
}

/** `--set` arguments of helm_parameters (commas and backslashes escaped as Helm reads them). */
export function parameterSets(additionalParams: Record<string, unknown> | undefined): string[] {
  const params = additionalParams?.helm_parameters;
  if (params === undefined) return [];
  if (!isMapping(params)) throw invalid('additionalParams.helm_parameters must map values keys to values.');
  return Object.entries(params).flatMap(([key, value]) => {
    if (!KEY.test(key)) throw invalid(`additionalParams.helm_parameters: ${key} is not a values key.`);
    if (!['string', 'number', 'boolean'].includes(typeof value)) {
      throw invalid(`additionalParams.helm_parameters.${key} must be a string, number or boolean.`);
    }
    return ['--set', `${key}=${String(value).replace(/[\\,]/g, (c) => `\\${c}`)}`];
  });
}

/** `--set` arguments giving each VDU its replicas. */
export const replicaSets = (names: Record<string, string>, counts: ReadonlyMap<string, number>) =>
  Object.entries(names).flatMap(([vduId, key]) =>
    counts.has(vduId) ? ['--set', `${key}=${counts.get(vduId)}`] : [],
  );
