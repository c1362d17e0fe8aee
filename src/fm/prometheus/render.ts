/**
 * The two files of one instance: its targets (Prometheus file_sd JSON, one entry per VNFC,
 * labelled so alerts find the VNFC) and its rules (the template once per VNFC, grouped per VDU).
 * VDU names come from tenants' VNFDs: every value put into a file is first reduced to a safe set
 * of characters, so nothing can break out of a PromQL string, a YAML scalar or a Prometheus
 * template ({{ … }} in labels and annotations is expanded by Prometheus).
 */
import { stringify } from 'yaml';
import type { RuleTemplate } from './template.ts';

export interface ProvisionedVnfc {
  vnfcId: string;
  vduId: string;
  hostname: string;
  target: string;
}

const UNSAFE = /[^A-Za-z0-9_.:[\]-]/g;

/** The value as it may appear in a file: safe characters only, at most 253 of them. */
export const safeValue = (value: string) => value.replace(UNSAFE, '_').slice(0, 253);

const PLACEHOLDER = /\{\{(vnfInstanceId|vduId|vnfcId|hostname|target)\}\}/g;

function fill(value: unknown, values: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(PLACEHOLDER, (_, name: string) => values[name]);
  if (Array.isArray(value)) return value.map((v) => fill(v, values));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, values)]));
  return value;
}

const valuesOf = (instanceId: string, vnfc: ProvisionedVnfc): Record<string, string> => ({
  vnfInstanceId: safeValue(instanceId),
  vduId: safeValue(vnfc.vduId),
  vnfcId: safeValue(vnfc.vnfcId),
  hostname: safeValue(vnfc.hostname),
  target: safeValue(vnfc.target),
});

export function renderTargets(instanceId: string, vnfcs: readonly ProvisionedVnfc[]): string {
  const entries = vnfcs.map((vnfc) => {
    const v = valuesOf(instanceId, vnfc);
    return {
      targets: [v.target],
      labels: { vnf_instance_id: v.vnfInstanceId, vdu_id: v.vduId, vnfc_id: v.vnfcId, hostname: v.hostname },
    };
  });
  return `${JSON.stringify(entries, null, 2)}\n`;
}

export function renderRules(
  instanceId: string,
  vnfcs: readonly ProvisionedVnfc[],
  template: RuleTemplate,
): string {
  const byVdu = new Map<string, ProvisionedVnfc[]>();
  for (const vnfc of vnfcs) byVdu.set(vnfc.vduId, [...(byVdu.get(vnfc.vduId) ?? []), vnfc]);
  const groups = [...byVdu.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    // The index keeps group names unique in the file when two VDU names reduce to one.
    .map(([vduId, members], index) => ({
      name: `bosun-${safeValue(instanceId)}-${index}-${safeValue(vduId)}`,
      rules: members.flatMap((vnfc) => template.map((rule) => fill(rule, valuesOf(instanceId, vnfc)))),
    }));
  return stringify({ groups });
}
