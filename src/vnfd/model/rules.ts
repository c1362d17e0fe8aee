/**
 * Consistency rules of a VNFD beyond what the TOSCA loader checks, with Tacker's meaning
 * (tacker-behaviour.md §3.1 steps 3–4) plus the cross-references LCM relies on (levels,
 * aspects, deltas, policy targets, requirement targets). Every finding is a diagnostic with a
 * stable code and the location of the node or policy at fault; all are reported in one pass.
 */
import { ownValue } from '../../own-properties.ts';
import type { Diagnostics } from '../diagnostics.ts';
import type { NodeTemplate, PolicyTemplate, ToscaLoadResult } from '../tosca/model.ts';
import { swImageArtifacts } from './images.ts';
import { policiesOfType, scopeOf, type TemplateScope } from './scope.ts';
import { SOL001 } from './sol001.ts';
import { num, rec, str, strList } from './values.ts';

/** Stable codes of the rules, for callers and tests. */
export const RULE_CODES = {
  swImageMultiple: 'VNFD_SWIMAGE_MULTIPLE',
  swImageDataMissing: 'VNFD_SWIMAGE_DATA_MISSING',
  instantiationLevelsMissing: 'VNFD_INSTANTIATION_LEVELS_MISSING',
  instantiationLevelsMultiple: 'VNFD_INSTANTIATION_LEVELS_MULTIPLE',
  defaultLevelUnknown: 'VNFD_DEFAULT_LEVEL_UNKNOWN',
  levelUnknown: 'VNFD_LEVEL_UNKNOWN',
  levelInstancesOutOfRange: 'VNFD_LEVEL_INSTANCES_OUT_OF_RANGE',
  scaleInfoAspectUnknown: 'VNFD_SCALE_INFO_ASPECT_UNKNOWN',
  scaleInfoLevelTooHigh: 'VNFD_SCALE_INFO_LEVEL_TOO_HIGH',
  scalingAspectUnknown: 'VNFD_SCALING_ASPECT_UNKNOWN',
  scalingDeltaUnknown: 'VNFD_SCALING_DELTA_UNKNOWN',
  scalingStepDeltasCount: 'VNFD_SCALING_STEP_DELTAS_COUNT',
  scalingAspectWithoutDeltas: 'VNFD_SCALING_ASPECT_WITHOUT_DELTAS',
  scalingAspectFixed: 'VNFD_SCALING_ASPECT_FIXED',
  vduProfileRange: 'VNFD_VDU_PROFILE_RANGE',
  initialDeltaOutOfRange: 'VNFD_INITIAL_DELTA_OUT_OF_RANGE',
  policyTargetUnknown: 'VNFD_POLICY_TARGET_UNKNOWN',
  policyTargetKind: 'VNFD_POLICY_TARGET_KIND',
  requirementTargetUnknown: 'VNFD_REQUIREMENT_TARGET_UNKNOWN',
  requirementTargetKind: 'VNFD_REQUIREMENT_TARGET_KIND',
  placementScopeUnsupported: 'VNFD_PLACEMENT_SCOPE_UNSUPPORTED',
  lcmImplementationUnknown: 'VNFD_LCM_IMPLEMENTATION_UNKNOWN',
  lcmScriptType: 'VNFD_LCM_SCRIPT_TYPE',
} as const;

/** Runs every rule over every template of the package (entry and imported flavour files). */
export function checkVnfdRules(tosca: ToscaLoadResult, diags: Diagnostics): void {
  for (const template of tosca.templates) {
    if (!template.topology) continue;
    const scope = scopeOf(template, tosca.types);
    for (const node of Object.values(scope.topology.nodeTemplates)) {
      checkSwImages(scope, node, diags);
      checkVduProfile(scope, node, diags);
      checkRequirementTargets(scope, node, diags);
      checkLcmImplementations(scope, node, diags);
    }
    checkPolicyTargets(scope, diags);
    checkInstantiationLevels(scope, diags);
    checkScaling(scope, diags);
    checkPlacement(scope, diags);
  }
}

function checkSwImages(scope: TemplateScope, node: NodeTemplate, diags: Diagnostics): void {
  const images = swImageArtifacts(scope.types, node);
  if (images.length > 1) {
    diags.error(
      RULE_CODES.swImageMultiple,
      `artifacts of type "${SOL001.swImage}" are added more than once for node ${node.name} (${images.map((a) => a.name).join(', ')}); a node has at most one software image`,
      images[1].loc,
    );
  }
  if (
    images.length > 0 &&
    (node.properties.sw_image_data === undefined || node.properties.sw_image_data === null)
  ) {
    diags.error(
      RULE_CODES.swImageDataMissing,
      `Node property "sw_image_data" is missing for artifact ${images[0].name} of node ${node.name}: a software image needs its sw_image_data (name, version, checksum, formats, sizes)`,
      node.loc,
    );
  }
}

function checkVduProfile(scope: TemplateScope, node: NodeTemplate, diags: Diagnostics): void {
  if (!scope.types.isA(node.type, SOL001.vdu)) return;
  const profile = rec(node.properties.vdu_profile);
  const min = num(profile.min_number_of_instances);
  const max = num(profile.max_number_of_instances);
  if (min !== undefined && max !== undefined && min > max) {
    diags.error(
      RULE_CODES.vduProfileRange,
      `vdu_profile of ${node.name}: min_number_of_instances ${min} is greater than max_number_of_instances ${max}`,
      node.propertyLocs.vdu_profile ?? node.loc,
    );
  }
}

/** Requirement name → the SOL001 types its target must be. */
const REQUIREMENT_KINDS: { nodeType: string; requirement: string; targets: string[]; what: string }[] = [
  { nodeType: SOL001.vduCp, requirement: 'virtual_binding', targets: [SOL001.vdu], what: 'a VDU' },
  {
    nodeType: SOL001.vduCp,
    requirement: 'virtual_link',
    targets: [SOL001.virtualLink],
    what: 'a VnfVirtualLink',
  },
  {
    nodeType: SOL001.vdu,
    requirement: 'virtual_storage',
    targets: [SOL001.blockStorage, SOL001.objectStorage, SOL001.fileStorage],
    what: 'a virtual storage',
  },
  {
    nodeType: SOL001.extCp,
    requirement: 'internal_virtual_link',
    targets: [SOL001.virtualLink, SOL001.vduCp],
    what: 'a VnfVirtualLink or VduCp',
  },
];

function checkRequirementTargets(scope: TemplateScope, node: NodeTemplate, diags: Diagnostics): void {
  for (const rule of REQUIREMENT_KINDS) {
    if (!scope.types.isA(node.type, rule.nodeType)) continue;
    for (const req of node.requirements) {
      if (req.name !== rule.requirement || req.node === undefined) continue;
      const target = ownValue(scope.topology.nodeTemplates, req.node);
      if (!target) {
        diags.error(
          RULE_CODES.requirementTargetUnknown,
          `${node.name}: requirement ${req.name} targets ${req.node}, which is not a node template of ${scope.template.file}`,
          req.loc,
        );
      } else if (!rule.targets.some((t) => scope.types.isA(target.type, t))) {
        diags.error(
          RULE_CODES.requirementTargetKind,
          `${node.name}: requirement ${req.name} targets ${req.node} of type ${target.type}; it must be ${rule.what}`,
          req.loc,
        );
      }
    }
  }
}

/** Policy type → the node types its targets may be (placement groups of them are accepted too). */
const TARGET_KINDS: { policy: string; targets: string[]; what: string }[] = [
  { policy: SOL001.vduInstantiationLevels, targets: [SOL001.vdu], what: 'VDUs' },
  { policy: SOL001.vduScalingAspectDeltas, targets: [SOL001.vdu], what: 'VDUs' },
  { policy: SOL001.vduInitialDelta, targets: [SOL001.vdu], what: 'VDUs' },
  { policy: SOL001.vlInstantiationLevels, targets: [SOL001.virtualLink], what: 'VnfVirtualLinks' },
  { policy: SOL001.vlBitrateScalingAspectDeltas, targets: [SOL001.virtualLink], what: 'VnfVirtualLinks' },
  {
    policy: SOL001.affinityRule,
    targets: [SOL001.vdu, SOL001.virtualLink],
    what: 'VDUs, VnfVirtualLinks or placement groups',
  },
  {
    policy: SOL001.antiAffinityRule,
    targets: [SOL001.vdu, SOL001.virtualLink],
    what: 'VDUs, VnfVirtualLinks or placement groups',
  },
];

function checkPolicyTargets(scope: TemplateScope, diags: Diagnostics): void {
  const groups = new Map(scope.topology.groups.map((g) => [g.name, g]));
  for (const policy of scope.topology.policies) {
    const kind = TARGET_KINDS.find((k) => scope.types.isA(policy.type, k.policy));
    for (const target of policy.targets) {
      const node = ownValue(scope.topology.nodeTemplates, target);
      const group = groups.get(target);
      if (!node && !group) {
        diags.error(
          RULE_CODES.policyTargetUnknown,
          `policy ${policy.name} targets ${target}, which is neither a node template nor a group of ${scope.template.file}`,
          policy.loc,
        );
        continue;
      }
      if (!kind) continue;
      const types = node
        ? [node.type]
        : (group?.members ?? []).map((m) => ownValue(scope.topology.nodeTemplates, m)?.type ?? '');
      if (!types.every((t) => kind.targets.some((k) => scope.types.isA(t, k)))) {
        diags.error(
          RULE_CODES.policyTargetKind,
          `policy ${policy.name} (${policy.type}) targets ${target}, but its targets must be ${kind.what}`,
          policy.loc,
        );
      }
    }
  }
}

function levelIds(policy: PolicyTemplate): string[] {
  return Object.keys(rec(policy.properties.levels));
}

function vduProfileOf(scope: TemplateScope, name: string): { min?: number; max?: number } {
  const profile = rec(ownValue(scope.topology.nodeTemplates, name)?.properties.vdu_profile);
  return { min: num(profile.min_number_of_instances), max: num(profile.max_number_of_instances) };
}

function checkInstantiationLevels(scope: TemplateScope, diags: Diagnostics): void {
  const main = policiesOfType(scope, SOL001.instantiationLevels);
  const dependents = [
    ...policiesOfType(scope, SOL001.vduInstantiationLevels),
    ...policiesOfType(scope, SOL001.vlInstantiationLevels),
  ];
  if (main.length === 0) {
    for (const p of dependents) {
      diags.error(
        RULE_CODES.instantiationLevelsMissing,
        `Policy of type "${SOL001.instantiationLevels}" is not defined in ${scope.template.file}, but policy ${p.name} (${p.type}) refers to instantiation levels`,
        p.loc,
      );
    }
    return;
  }
  if (main.length > 1) {
    diags.warning(
      RULE_CODES.instantiationLevelsMultiple,
      `${scope.template.file} has ${main.length} InstantiationLevels policies; only the first (${main[0].name}) is used`,
      main[1].loc,
    );
  }
  checkLevelNames(main[0], dependents, diags);
  checkLevelInstances(scope, diags);
  checkScaleInfo(scope, main[0], diags);
}

/** The default level and the levels of the VDU and VL policies are levels of `main`. */
function checkLevelNames(main: PolicyTemplate, dependents: PolicyTemplate[], diags: Diagnostics): void {
  const levels = levelIds(main);
  const defined = levels.join(',');
  const defaultLevel = str(main.properties.default_level);
  if (defaultLevel !== undefined && !levels.includes(defaultLevel)) {
    diags.error(
      RULE_CODES.defaultLevelUnknown,
      `default_level ${defaultLevel} of policy ${main.name} is not one of its levels (${defined})`,
      main.loc,
    );
  }
  for (const p of dependents) {
    const unknown = levelIds(p).filter((l) => !levels.includes(l));
    if (unknown.length > 0) {
      diags.error(
        RULE_CODES.levelUnknown,
        `Level(s) ${unknown.join(',')} of policy ${p.name} not found in the levels defined by ${main.name} (${defined})`,
        p.loc,
      );
    }
  }
}

/** A level's number of instances of a VDU is within the VDU's vdu_profile (a warning). */
function checkLevelInstances(scope: TemplateScope, diags: Diagnostics): void {
  for (const p of policiesOfType(scope, SOL001.vduInstantiationLevels)) {
    for (const [level, raw] of Object.entries(rec(p.properties.levels))) {
      const n = num(rec(raw).number_of_instances);
      for (const vdu of p.targets) {
        const { min, max } = vduProfileOf(scope, vdu);
        if (n !== undefined && ((min !== undefined && n < min) || (max !== undefined && n > max))) {
          diags.warning(
            RULE_CODES.levelInstancesOutOfRange,
            `policy ${p.name}: level ${level} gives ${vdu} ${n} instances, outside its vdu_profile range [${min ?? '?'}, ${max ?? '?'}]`,
            p.loc,
          );
        }
      }
    }
  }
}

/** scale_info refers to aspects and levels within their max_scale_level. */
function checkScaleInfo(scope: TemplateScope, main: PolicyTemplate, diags: Diagnostics): void {
  const aspects = aspectsOf(scope);
  for (const [level, raw] of Object.entries(rec(main.properties.levels))) {
    for (const [aspect, info] of Object.entries(rec(rec(raw).scale_info))) {
      const a = aspects.get(aspect);
      const scaleLevel = num(rec(info).scale_level);
      if (!a) {
        diags.warning(
          RULE_CODES.scaleInfoAspectUnknown,
          `level ${level} of policy ${main.name}: scale_info names aspect ${aspect}, which no ScalingAspects policy defines`,
          main.loc,
        );
      } else if (scaleLevel !== undefined && a.max !== undefined && scaleLevel > a.max) {
        diags.warning(
          RULE_CODES.scaleInfoLevelTooHigh,
          `level ${level} of policy ${main.name}: scale_level ${scaleLevel} of aspect ${aspect} exceeds its max_scale_level ${a.max}`,
          main.loc,
        );
      }
    }
  }
}

function aspectsOf(
  scope: TemplateScope,
): Map<string, { max?: number; stepDeltas: string[]; policy: PolicyTemplate }> {
  const out = new Map<string, { max?: number; stepDeltas: string[]; policy: PolicyTemplate }>();
  for (const p of policiesOfType(scope, SOL001.scalingAspects)) {
    for (const [id, raw] of Object.entries(rec(p.properties.aspects))) {
      out.set(id, {
        max: num(rec(raw).max_scale_level),
        stepDeltas: strList(rec(raw).step_deltas),
        policy: p,
      });
    }
  }
  return out;
}

function checkScaling(scope: TemplateScope, diags: Diagnostics): void {
  const aspects = aspectsOf(scope);
  const deltasByAspect = new Map<string, Set<string>>();
  const deltaPolicies = [
    ...policiesOfType(scope, SOL001.vduScalingAspectDeltas),
    ...policiesOfType(scope, SOL001.vlBitrateScalingAspectDeltas),
  ];
  for (const p of deltaPolicies) {
    const aspect = str(p.properties.aspect);
    if (aspect === undefined || !aspects.has(aspect)) {
      diags.error(
        RULE_CODES.scalingAspectUnknown,
        `policy ${p.name} refers to scaling aspect ${aspect ?? '(none)'}, which no ScalingAspects policy of ${scope.template.file} defines`,
        p.loc,
      );
      continue;
    }
    const set = deltasByAspect.get(aspect) ?? new Set<string>();
    for (const d of Object.keys(rec(p.properties.deltas))) set.add(d);
    deltasByAspect.set(aspect, set);
  }
  for (const [id, a] of aspects) {
    const known = deltasByAspect.get(id);
    if (!known) {
      diags.warning(
        RULE_CODES.scalingAspectWithoutDeltas,
        `scaling aspect ${id} has no VduScalingAspectDeltas (or VL bitrate deltas) policy; scaling it changes nothing`,
        a.policy.loc,
      );
      continue;
    }
    for (const d of a.stepDeltas) {
      if (!known.has(d)) {
        diags.tolerated(
          RULE_CODES.scalingDeltaUnknown,
          `scaling aspect ${id}: step delta ${d} is not defined by any deltas policy for the aspect (defined: ${[...known].join(',')}); scaling the aspect through that step fails`,
          a.policy.loc,
        );
      }
    }
    checkAspectCanScale(scope, id, a.policy, diags);
    // SOL001: one step delta (uniform) or one per scale level.
    if (a.max !== undefined && a.stepDeltas.length > 1 && a.stepDeltas.length !== a.max) {
      diags.warning(
        RULE_CODES.scalingStepDeltasCount,
        `scaling aspect ${id} has ${a.stepDeltas.length} step_deltas but max_scale_level ${a.max}; give one delta (uniform) or one per level`,
        a.policy.loc,
      );
    }
  }
  for (const p of policiesOfType(scope, SOL001.vduInitialDelta)) {
    const n = num(rec(p.properties.initial_delta).number_of_instances);
    for (const vdu of p.targets) {
      const { min, max } = vduProfileOf(scope, vdu);
      if (n !== undefined && ((min !== undefined && n < min) || (max !== undefined && n > max))) {
        diags.warning(
          RULE_CODES.initialDeltaOutOfRange,
          `policy ${p.name}: initial delta ${n} for ${vdu} is outside its vdu_profile range [${min ?? '?'}, ${max ?? '?'}]`,
          p.loc,
        );
      }
    }
  }
}

/**
 * An aspect whose every scaled VDU has vdu_profile min = max can never take a step: scaling out
 * goes above the maximum, scaling in below the minimum.
 */
function checkAspectCanScale(
  scope: TemplateScope,
  aspect: string,
  aspectsPolicy: PolicyTemplate,
  diags: Diagnostics,
): void {
  const scaled = new Set<string>();
  for (const p of policiesOfType(scope, SOL001.vduScalingAspectDeltas)) {
    if (str(p.properties.aspect) !== aspect) continue;
    const adds = Object.values(rec(p.properties.deltas)).some(
      (d) => (num(rec(d).number_of_instances) ?? 0) > 0,
    );
    if (adds) for (const vdu of p.targets) scaled.add(vdu);
  }
  if (scaled.size === 0) return;
  const fixed = [...scaled].map((vdu) => ({ vdu, ...vduProfileOf(scope, vdu) }));
  if (!fixed.every((f) => f.min !== undefined && f.min === f.max)) return;
  diags.warning(
    RULE_CODES.scalingAspectFixed,
    `scaling aspect ${aspect} can never scale: ${fixed.map((f) => `${f.vdu} has vdu_profile min = max = ${f.min}`).join(', ')}; raise max_number_of_instances or drop the aspect`,
    aspectsPolicy.loc,
  );
}

function checkPlacement(scope: TemplateScope, diags: Diagnostics): void {
  for (const p of [
    ...policiesOfType(scope, SOL001.affinityRule),
    ...policiesOfType(scope, SOL001.antiAffinityRule),
  ]) {
    const scopeValue = str(p.properties.scope);
    if (scopeValue !== undefined && scopeValue !== 'zone' && scopeValue !== 'nfvi_node') {
      diags.warning(
        RULE_CODES.placementScopeUnsupported,
        `policy ${p.name}: scope ${scopeValue} is not enforced by placement (only zone and nfvi_node are)`,
        p.loc,
      );
    }
  }
}

/**
 * Vnflcm hooks: an implementation that is neither an artifact of the node nor a file path
 * cannot run; LCM v2 runs Python scripts only (Tacker answers 422 at LCM time otherwise).
 */
function checkLcmImplementations(scope: TemplateScope, node: NodeTemplate, diags: Diagnostics): void {
  if (!scope.types.isA(node.type, SOL001.vnf)) return;
  for (const [op, def] of Object.entries(node.interfaces.Vnflcm ?? {})) {
    const impl = def.implementation;
    if (!impl) continue;
    const artifact = node.artifacts[impl];
    if (!artifact) {
      if (!/[./]/.test(impl)) {
        diags.warning(
          RULE_CODES.lcmImplementationUnknown,
          `Vnflcm.${op} of ${node.name}: implementation ${impl} is not an artifact of the node`,
          def.loc,
        );
      }
    } else if (!scope.types.isA(artifact.type, 'tosca.artifacts.Implementation.Python')) {
      diags.warning(
        RULE_CODES.lcmScriptType,
        `Vnflcm.${op} of ${node.name}: artifact ${impl} has type ${artifact.type}; LCM scripts must be tosca.artifacts.Implementation.Python`,
        def.loc,
      );
    }
  }
}
