/**
 * Problems real Tacker packages have and Tacker onboards: each package onboards with a warning
 * by default and is refused with the same code under strict checking, and the model keeps what
 * LCM needs to fail clearly later (a host-path hook, an undefined step delta).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TOLERATED_CODES } from '../../src/vnfd/diagnostics.ts';
import { readPackage } from '../../src/vnfd/read-package.ts';
import { HOST_DRIVER, type PatternName, patternFile, TACKER_PATTERNS, TYPES } from './tacker-patterns.ts';

async function read(name: PatternName, strict: boolean, then?: Parameters<typeof patternFile>[1]) {
  const file = await patternFile(name, then);
  try {
    return await readPackage(file.path, { strict });
  } finally {
    await file.cleanup();
  }
}

describe('packages Tacker accepts', () => {
  for (const [name, pattern] of Object.entries(TACKER_PATTERNS) as [PatternName, { code: string }][]) {
    test(`${name}: a ${pattern.code} warning by default, an error under strict checking`, async () => {
      assert.ok(Object.hasOwn(TOLERATED_CODES, pattern.code));
      const lenient = await read(name, false);
      assert.deepEqual(
        lenient.diagnostics.filter((d) => d.severity === 'error'),
        [],
      );
      assert.equal(lenient.valid, true);
      const warning = lenient.diagnostics.find((d) => d.code === pattern.code);
      assert.equal(warning?.severity, 'warning', JSON.stringify(lenient.diagnostics));
      assert.match(warning.file ?? '', /^Definitions\//);
      assert.equal(typeof warning.line, 'number');

      const strict = await read(name, true);
      assert.equal(strict.valid, false);
      assert.equal(strict.vnfd, undefined);
      const errors = strict.diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual(
        errors.map((d) => d.code),
        [pattern.code],
      );
      assert.match(errors[0].message, /strict/);
    });
  }

  test('a management driver referenced by its host path is a host-path hook in the model', async () => {
    const report = await read('hostPathArtifact', false);
    const warning = report.diagnostics.find((d) => d.code === 'TOSCA_ARTIFACT_HOST_PATH');
    assert.ok(warning?.message.includes(HOST_DRIVER), warning?.message);
    const hooks = report.vnfd!.flavours[0].lcmOperations.filter((o) => o.implementation === 'sample-script');
    assert.ok(hooks.length > 0);
    for (const hook of hooks) {
      assert.deepEqual(hook.artifact, {
        name: 'sample-script',
        type: 'tosca.artifacts.Implementation.Python',
        path: HOST_DRIVER,
        kind: 'host-path',
      });
    }
  });

  test('hooks shipped in the package are package artifacts', async () => {
    const report = await read('undefinedStepDelta', false);
    const hook = report.vnfd!.flavours[0].lcmOperations.find((o) => o.name === 'instantiate_start');
    assert.deepEqual(hook?.artifact?.kind, 'package');
    assert.equal(hook?.artifact?.path, 'Scripts/sample_script.py');
  });

  test('a substitution flavour_id outside valid_values is the flavour id', async () => {
    const report = await read('mappingOutsideConstraints', false);
    assert.deepEqual(
      report.vnfd!.flavours.map((f) => f.flavourId),
      ['complex'],
    );
    const warning = report.diagnostics.find((d) => d.code === 'TOSCA_MAPPING_CONSTRAINT');
    assert.match(warning?.message ?? '', /flavour_id: value "complex" violates valid_values/);
  });

  test('a data type declared under node_types is checked as a data type', async () => {
    const report = await read('dataTypeInNodeTypes', false, {
      [TYPES]: (t) => t.replace('default: { workers: 2 }', 'default: { workers: 0 }'),
    });
    assert.equal(report.valid, false);
    const errors = report.diagnostics.filter((d) => d.severity === 'error');
    assert.ok(errors.length > 0);
    assert.deepEqual(new Set(errors.map((d) => d.code)), new Set(['TOSCA_CONSTRAINT']));
    assert.match(
      errors[0].message,
      /workers.*company\.datatypes\.Tuning|company\.datatypes\.Tuning.*workers/,
    );
  });

  test('a step delta no deltas policy defines stays in the model', async () => {
    const report = await read('undefinedStepDelta', false);
    const aspect = report.vnfd!.flavours[0].scalingAspects.find((a) => a.id === 'VDU1_scale');
    assert.deepEqual(aspect?.stepDeltas, ['delta_missing']);
    assert.deepEqual(aspect?.vduDeltas, { VDU1: { delta_1: 1 } });
  });
});
