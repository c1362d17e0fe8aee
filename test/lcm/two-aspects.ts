/**
 * A VNF with two scaling aspects, from the main shared sample: VDU1_scale as shipped (VDU1 1..3)
 * and a VDU2_scale added the same way (VDU2 1..3, one VNFC per step), with both aspects in the
 * instantiation levels (level 1: both at 0, level 2: both at 2).
 */
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Vnfd } from '../../src/vnfd/model/vnfd.ts';
import { readPackage } from '../../src/vnfd/read-package.ts';
import { sampleVariant } from '../http/vnflcm/sample-package.ts';

export const TWO_ASPECTS_BASE = 'sol_v2_common__basic_lcms_max_individual_vnfc.zip';
const DF = 'Definitions/v2_sample3_df_simple.yaml';

function replaceOnce(text: string, from: string | RegExp, to: string): string {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`two-aspects variant: ${from} not found in ${DF}`);
  return out;
}

/** The sample's simple flavour with VDU2 scalable through a second aspect. */
export function withTwoAspects(df: string): string {
  let text = replaceOnce(df, /(VDU2:\n(?:.*\n)*?\s+max_number_of_instances: )1/, '$13');
  text = replaceOnce(
    text,
    /( {12}VDU1_scale:\n {14}name: VDU1_scale\n(?: {14}.*\n)*?( {14}step_deltas:\n {16}- delta_1\n))/,
    '$1            VDU2_scale:\n              name: VDU2_scale\n              description: VDU2 scaling aspect\n              max_scale_level: 2\n$2',
  );
  text = replaceOnce(
    text,
    '    - instantiation_levels:\n',
    [
      '    - VDU2_scaling_aspect_deltas:',
      '        type: tosca.policies.nfv.VduScalingAspectDeltas',
      '        properties:',
      '          aspect: VDU2_scale',
      '          deltas:',
      '            delta_1:',
      '              number_of_instances: 1',
      '        targets: [ VDU2 ]',
      '',
      '    - instantiation_levels:',
      '',
    ].join('\n'),
  );
  text = replaceOnce(
    text,
    /( {16}VDU1_scale:\n {18}scale_level: 0\n)/,
    '$1                VDU2_scale:\n                  scale_level: 0\n',
  );
  text = replaceOnce(
    text,
    /( {16}VDU1_scale:\n {18}scale_level: 2\n)/,
    '$1                VDU2_scale:\n                  scale_level: 2\n',
  );
  return replaceOnce(
    text,
    /(VDU2_instantiation_levels:\n(?:.*\n)*?\s+instantiation_level_2:\n\s+number_of_instances: )1/,
    '$13',
  );
}

/** The variant as a zip (with a fresh vnfdId) to onboard. */
export function twoAspectsPackage(): Promise<{ zip: Buffer; vnfdId: string }> {
  return sampleVariant(TWO_ASPECTS_BASE, {
    vnfdId: 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21',
    edit: { [DF]: withTwoAspects },
  });
}

let model: Promise<Vnfd> | undefined;

/** The variant's VNFD model, for driver tests. */
export function twoAspectsVnfd(): Promise<Vnfd> {
  model ??= (async () => {
    const { zip, vnfdId } = await twoAspectsPackage();
    const file = join(tmpdir(), `bosun-two-aspects-${vnfdId}.zip`);
    await writeFile(file, zip);
    try {
      const read = await readPackage(file, { imageHashMismatch: 'warning' });
      if (!read.vnfd)
        throw new Error(`two-aspects variant: ${read.diagnostics.map((d) => d.message).join('; ')}`);
      return read.vnfd;
    } finally {
      await rm(file, { force: true });
    }
  })();
  return model;
}
