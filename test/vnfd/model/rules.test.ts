import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic } from '../../../src/vnfd/diagnostics.ts';
import { extractVnfd } from '../../../src/vnfd/model/extract.ts';
import { RULE_CODES } from '../../../src/vnfd/model/rules.ts';
import type { TemplateSpec } from './contract-fixture.ts';
import { csar } from './contract-fixture.ts';
import { DF, standard } from './standard-vnfd.ts';

function run(alter: (top: TemplateSpec, df: TemplateSpec) => void): Diagnostic[] {
  return extractVnfd(standard(alter), csar()).diagnostics;
}

function policy(df: TemplateSpec, name: string) {
  const p = df.policies?.find((x) => x.name === name);
  assert.ok(p, name);
  return p;
}

function only(diags: Diagnostic[], code: string): Diagnostic[] {
  const found = diags.filter((d) => d.code === code);
  assert.ok(found.length > 0, `expected ${code}, got ${JSON.stringify(diags)}`);
  return found;
}

describe('VNFD consistency rules', () => {
  it('the standard VNFD breaks no rule', () => {
    assert.deepEqual(
      run(() => {}),
      [],
    );
  });

  it('VDU/VL instantiation levels without an InstantiationLevels policy', () => {
    const diags = run((_t, df) => {
      df.policies = df.policies?.filter((p) => p.name !== 'instantiation_levels');
    });
    const [d] = only(diags, RULE_CODES.instantiationLevelsMissing);
    assert.equal(d.severity, 'error');
    assert.match(d.message, /InstantiationLevels/);
    assert.equal(d.file, DF);
    assert.equal(typeof d.line, 'number');
    assert.equal(only(diags, RULE_CODES.instantiationLevelsMissing).length, 2);
  });

  it('SwImage artifact without sw_image_data', () => {
    const diags = run((_t, df) => {
      const vdu = df.nodes?.VDU1;
      if (vdu?.properties) delete vdu.properties.sw_image_data;
    });
    const [d] = only(diags, RULE_CODES.swImageDataMissing);
    assert.equal(d.severity, 'error');
    assert.match(d.message, /sw_image_data/);
    assert.match(d.message, /VDU1/);
  });

  it('more than one SwImage artifact on a node (short notation counts)', () => {
    const diags = run((_t, df) => {
      const vdu = df.nodes?.VDU1;
      if (vdu?.artifacts) vdu.artifacts.second = { file: '../Files/images/other.img' };
    });
    const [d] = only(diags, RULE_CODES.swImageMultiple);
    assert.match(d.message, /VDU1/);
  });

  it('an untyped short-notation artifact on the VNF node is not an image', () => {
    const diags = run((top) => {
      const vnf = top.nodes?.VNF;
      if (vnf?.artifacts) vnf.artifacts.extra = { file: '../Scripts/x.sh' };
    });
    assert.deepEqual(diags, []);
  });

  it('default level and VDU level keys must be defined levels', () => {
    const diags = run((_t, df) => {
      policy(df, 'instantiation_levels').properties = {
        levels: { level_1: {} },
        default_level: 'level_9',
      };
    });
    assert.match(only(diags, RULE_CODES.defaultLevelUnknown)[0].message, /level_9/);
    const unknown = only(diags, RULE_CODES.levelUnknown);
    assert.ok(unknown.some((d) => d.message.includes('level_2') && d.message.includes('VDU1_levels')));
  });

  it('scaling deltas must name an existing aspect, and step deltas must be defined', () => {
    const diags = run((_t, df) => {
      policy(df, 'VDU2_deltas').properties = {
        aspect: 'nope',
        deltas: { delta_1: { number_of_instances: 1 } },
      };
    });
    assert.match(only(diags, RULE_CODES.scalingAspectUnknown)[0].message, /nope/);
    assert.equal(only(diags, RULE_CODES.scalingAspectWithoutDeltas)[0].severity, 'warning');
    const missingDelta = run((_t, df) => {
      policy(df, 'scaling_aspects').properties = {
        aspects: { worker: { max_scale_level: 2, step_deltas: ['delta_1', 'delta_2'] } },
      };
    });
    assert.match(only(missingDelta, RULE_CODES.scalingDeltaUnknown)[0].message, /delta_2/);
  });

  it('a step delta no deltas policy defines is tolerated (a warning, as Tacker accepts it)', () => {
    const diags = run((_t, df) => {
      policy(df, 'scaling_aspects').properties = {
        aspects: { worker: { max_scale_level: 2, step_deltas: ['delta_1', 'delta_2'] } },
      };
    });
    const [d] = only(diags, RULE_CODES.scalingDeltaUnknown);
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /worker: step delta delta_2 .*scaling the aspect through that step fails/);
  });

  it('warns about an aspect that can never scale: every VDU it scales has min = max', () => {
    const fixed = run((_t, df) => {
      const vdu = df.nodes?.VDU2;
      if (vdu?.properties)
        vdu.properties.vdu_profile = { min_number_of_instances: 2, max_number_of_instances: 2 };
    });
    const [d] = only(fixed, RULE_CODES.scalingAspectFixed);
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /aspect worker can never scale: VDU2 has vdu_profile min = max = 2/);
    assert.equal(d.file, DF);
    // One VDU of the aspect with room is enough for it to scale.
    const other = run((_t, df) => {
      const vdu = df.nodes?.VDU2;
      if (vdu?.properties)
        vdu.properties.vdu_profile = { min_number_of_instances: 1, max_number_of_instances: 2 };
    });
    assert.equal(
      other.some((x) => x.code === RULE_CODES.scalingAspectFixed),
      false,
    );
  });

  it('warns when step_deltas are neither one nor one per level, and when scale_info exceeds max_scale_level', () => {
    const diags = run((_t, df) => {
      policy(df, 'scaling_aspects').properties = {
        aspects: { worker: { max_scale_level: 3, step_deltas: ['delta_1', 'delta_1'] } },
      };
      policy(df, 'instantiation_levels').properties = {
        levels: {
          level_1: { scale_info: { worker: { scale_level: 4 }, ghost: { scale_level: 0 } } },
          level_2: {},
        },
        default_level: 'level_1',
      };
    });
    assert.equal(only(diags, RULE_CODES.scalingStepDeltasCount)[0].severity, 'warning');
    assert.equal(only(diags, RULE_CODES.scaleInfoLevelTooHigh)[0].severity, 'warning');
    assert.match(only(diags, RULE_CODES.scaleInfoAspectUnknown)[0].message, /ghost/);
  });

  it('vdu_profile min must not exceed max; levels and initial deltas outside it are warned', () => {
    const diags = run((_t, df) => {
      const vdu = df.nodes?.VDU1;
      if (vdu?.properties)
        vdu.properties.vdu_profile = { min_number_of_instances: 4, max_number_of_instances: 2 };
      policy(df, 'VDU2_initial_delta').properties = { initial_delta: { number_of_instances: 5 } };
    });
    const [d] = only(diags, RULE_CODES.vduProfileRange);
    assert.equal(d.severity, 'error');
    assert.match(d.message, /VDU1/);
    assert.equal(only(diags, RULE_CODES.levelInstancesOutOfRange)[0].severity, 'warning');
    assert.equal(only(diags, RULE_CODES.initialDeltaOutOfRange)[0].severity, 'warning');
  });

  it('policy targets must exist and be of the right kind', () => {
    const diags = run((_t, df) => {
      policy(df, 'VDU1_levels').targets = ['VDU9'];
      policy(df, 'VDU2_deltas').targets = ['internalVL1'];
      policy(df, 'VL_levels').targets = ['VDU1'];
    });
    assert.match(only(diags, RULE_CODES.policyTargetUnknown)[0].message, /VDU9/);
    const kinds = only(diags, RULE_CODES.policyTargetKind);
    assert.equal(kinds.length, 2);
    assert.ok(kinds.every((d) => d.severity === 'error'));
  });

  it('requirement targets must exist and be of the right kind', () => {
    const diags = run((_t, df) => {
      const cp = df.nodes?.CP1;
      if (cp)
        cp.requirements = [
          ['virtual_binding', 'internalVL1'],
          ['virtual_link', 'Nowhere'],
        ];
    });
    assert.match(
      only(diags, RULE_CODES.requirementTargetKind)[0].message,
      /CP1.*virtual_binding.*internalVL1/,
    );
    assert.match(only(diags, RULE_CODES.requirementTargetUnknown)[0].message, /Nowhere/);
  });

  it('warns about placement scopes that placement does not enforce', () => {
    const diags = run((_t, df) => {
      policy(df, 'aff').properties = { scope: 'nfvi_pop' };
    });
    const [d] = only(diags, RULE_CODES.placementScopeUnsupported);
    assert.equal(d.severity, 'warning');
  });

  it('warns about Vnflcm hooks whose implementation is not a Python artifact of the node', () => {
    const diags = run((_t, df) => {
      const vnf = df.nodes?.VNF;
      if (!vnf?.interfaces || !vnf.artifacts) return;
      vnf.interfaces.Vnflcm.scale_start = { implementation: 'missing' };
      vnf.artifacts.shell = { type: 'tosca.artifacts.Implementation.Bash', file: '../Scripts/x.sh' };
      vnf.interfaces.Vnflcm.scale_end = { implementation: 'shell' };
    });
    assert.match(only(diags, RULE_CODES.lcmImplementationUnknown)[0].message, /scale_start.*missing/);
    const [d] = only(diags, RULE_CODES.lcmScriptType);
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /scale_end/);
  });

  it('reports every problem in one pass, and warnings alone still give a model', () => {
    const tosca = standard((_t, df) => {
      policy(df, 'aff').properties = { scope: 'nfvi_pop' };
    });
    const r = extractVnfd(tosca, csar());
    assert.ok(r.vnfd);
    const broken = run((_t, df) => {
      df.policies = df.policies?.filter((p) => p.name !== 'instantiation_levels');
      const vdu = df.nodes?.VDU1;
      if (vdu?.properties) delete vdu.properties.sw_image_data;
    });
    only(broken, RULE_CODES.instantiationLevelsMissing);
    only(broken, RULE_CODES.swImageDataMissing);
  });

  it('a target named like an Object.prototype member (toString, constructor) is an unknown node, not a crash', () => {
    const diags = run((_t, df) => {
      df.nodes!.CP1.requirements = [['virtual_binding', 'constructor']];
      df.policies?.push({
        name: 'levels_of_nothing',
        type: 'tosca.policies.nfv.VduInstantiationLevels',
        properties: { levels: { level_1: { number_of_instances: 1 } } },
        targets: ['toString'],
      });
    });
    assert.match(only(diags, RULE_CODES.requirementTargetUnknown)[0].message, /targets constructor/);
    assert.match(
      only(diags, RULE_CODES.policyTargetUnknown)[0].message,
      /levels_of_nothing targets toString/,
    );
  });
});
