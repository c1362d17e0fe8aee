/**
 * Placement and VIM constraints of a GrantRequest from the flavour's affinity and anti-affinity
 * rules. Every rule is evaluated (Tacker stops at the first rule of a kind that yields too few
 * references, §12.15): a rule gives a constraint when it references at least one resource being
 * added and at least two resources in all, new ones by their grant id and existing VNFCs of its
 * target VDUs by their VIM resource id. Host-scope rules also become the server groups the
 * driver enforces.
 */
import type { VnfcResourceInfo } from '../sol/instance-model.ts';
import type { ServerGroup } from '../vims/contract.ts';
import type { PlacementRule } from '../vnfd/model/vnfd.ts';
import type {
  ConstraintResourceRef,
  PlacementConstraint,
  ResourceDefinition,
  VimConstraint,
} from './types.ts';

const SCOPES: Readonly<Record<string, PlacementConstraint['scope']>> = {
  zone: 'ZONE',
  nfvi_node: 'NFVI_NODE',
  zone_group: 'ZONE_GROUP',
  nfvi_pop: 'NFVI_POP',
};

export interface PlacementInput {
  rules: readonly PlacementRule[];
  /** Resources being added (COMPUTE ones count). */
  add: readonly ResourceDefinition[];
  /** VNFCs that stay (existing, not being removed). */
  existing: readonly VnfcResourceInfo[];
  fallbackBestEffort: boolean;
}

function refsOf(
  rule: PlacementRule,
  input: PlacementInput,
): { added: ConstraintResourceRef[]; all: ConstraintResourceRef[] } {
  const members = new Set(rule.members);
  const added: ConstraintResourceRef[] = input.add
    .filter((r) => r.type === 'COMPUTE' && members.has(r.resourceTemplateId))
    .map((r) => ({ idType: 'GRANT', resourceId: r.id }));
  const kept: ConstraintResourceRef[] = input.existing
    .filter((v) => members.has(v.vduId))
    .map((v) => ({
      idType: 'RES_MGMT',
      resourceId: v.computeResource.resourceId,
      ...(v.computeResource.vimConnectionId ? { vimConnectionId: v.computeResource.vimConnectionId } : {}),
    }));
  return { added, all: [...added, ...kept] };
}

export function placementConstraints(input: PlacementInput): PlacementConstraint[] {
  const out: PlacementConstraint[] = [];
  for (const rule of input.rules) {
    const scope = SCOPES[rule.scope];
    if (!scope) continue;
    const { added, all } = refsOf(rule, input);
    if (added.length < 1 || all.length < 2) continue;
    out.push({
      affinityOrAntiAffinity: rule.kind === 'affinity' ? 'AFFINITY' : 'ANTI_AFFINITY',
      scope,
      resource: all,
      fallbackBestEffort: input.fallbackBestEffort,
    });
  }
  return out;
}

/** Affinity at NFVI-PoP scope means "one VIM": a VimConstraint the NFVO applies when choosing VIMs. */
export function vimConstraints(input: PlacementInput): VimConstraint[] {
  const out: VimConstraint[] = [];
  for (const rule of input.rules) {
    if (rule.kind !== 'affinity' || rule.scope !== 'nfvi_pop') continue;
    const { added, all } = refsOf(rule, input);
    if (added.length < 1 || all.length < 2) continue;
    out.push({ sameResourceGroup: true, resource: all });
  }
  return out;
}

/**
 * One server group per NFVI_NODE-scope rule of the flavour that has a member among `vnfcs` (the
 * VNFCs the instance has after the operation). A group of one member is still a group: the VIM
 * must place the members a later scale out adds beside (or away from) it. The group id is the
 * rule's name, so every operation of an instance speaks of the same group; best effort makes the
 * policy soft.
 */
export function serverGroups(
  rules: readonly PlacementRule[],
  vnfcs: readonly { id: string; vduId: string }[],
  fallbackBestEffort: boolean,
): ServerGroup[] {
  const out: ServerGroup[] = [];
  for (const rule of rules) {
    if (rule.scope !== 'nfvi_node') continue;
    const members = new Set(rule.members);
    const ids = vnfcs.filter((v) => members.has(v.vduId)).map((v) => v.id);
    if (ids.length === 0) continue;
    const kind = rule.kind === 'affinity' ? 'affinity' : 'anti-affinity';
    out.push({ id: rule.name, policy: fallbackBestEffort ? `soft-${kind}` : kind, members: ids });
  }
  return out;
}
