/**
 * The scheduler's NodeAffinity filter: a pod goes only to a node whose labels match its
 * `nodeSelector` and one of the terms of its required node affinity (each term's expressions
 * all hold; `matchFields` may name the node's metadata.name), with the operators of the real API.
 */
import type { Obj } from '../store.ts';

interface Requirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values?: string[];
}

const holds = (r: Requirement, value: string | undefined): boolean => {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      // Both sides integers, else no match (as the real selector parses them).
      const [n, bound] = [Number(value), Number(values[0])];
      if (value === undefined || !Number.isInteger(n) || !Number.isInteger(bound)) return false;
      return r.operator === 'Gt' ? n > bound : n < bound;
    }
    default:
      return false;
  }
};

/** Whether `node` may take `pod` as far as its node selector and required node affinity go. */
export function nodeMatches(pod: Obj, node: Obj): boolean {
  const labels: Record<string, string> = node.metadata.labels ?? {};
  const selector: Record<string, string> = pod.spec.nodeSelector ?? {};
  if (Object.entries(selector).some(([k, v]) => labels[k] !== v)) return false;
  const terms: Obj[] | undefined =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!terms) return true;
  const fields: Record<string, string> = { 'metadata.name': node.metadata.name };
  return terms.some(
    (t) =>
      // An empty term matches no node.
      (t.matchExpressions?.length || t.matchFields?.length) &&
      ((t.matchExpressions ?? []) as Requirement[]).every((r) => holds(r, labels[r.key])) &&
      ((t.matchFields ?? []) as Requirement[]).every((r) => holds(r, fields[r.key])),
  );
}
