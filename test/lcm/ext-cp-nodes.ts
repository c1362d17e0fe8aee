/**
 * A VNF with an external CP declared as a VnfExtCp node, from the main shared sample: EXT_CP1
 * (`tosca.nodes.nfv.VnfExtCp`) exposes the internal VL internalVL1 (`internal_virtual_link`)
 * and is mapped to the VNF's `virtual_link_external3` through its `external_virtual_link`.
 */
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Vnfd } from '../../src/vnfd/model/vnfd.ts';
import { readPackage } from '../../src/vnfd/read-package.ts';
import { sampleVariant } from '../http/vnflcm/sample-package.ts';

export const EXT_CP_BASE = 'sol_v2_common__basic_lcms_max_individual_vnfc.zip';
/** The VnfExtCp node's name, and the internal VL it exposes. */
export const EXT_CP = 'EXT_CP1';
export const EXPOSED_VL = 'internalVL1';
const DF = 'Definitions/v2_sample3_df_simple.yaml';

function replaceOnce(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`ext-cp variant: ${from} not found in ${DF}`);
  return text.replace(from, to);
}

export function withVnfExtCp(df: string): string {
  const text = replaceOnce(
    df,
    '  node_templates:\n',
    [
      '  node_templates:',
      `    ${EXT_CP}:`,
      '      type: tosca.nodes.nfv.VnfExtCp',
      '      properties:',
      '        layer_protocols: [ ipv4 ]',
      '      requirements:',
      `        - internal_virtual_link: ${EXPOSED_VL}`,
      '',
    ].join('\n'),
  );
  return replaceOnce(
    text,
    '      virtual_link_external2_1: [ VDU1_CP2, virtual_link ]\n',
    `      virtual_link_external2_1: [ VDU1_CP2, virtual_link ]\n      virtual_link_external3: [ ${EXT_CP}, external_virtual_link ]\n`,
  );
}

export function extCpPackage(): Promise<{ zip: Buffer; vnfdId: string }> {
  return sampleVariant(EXT_CP_BASE, {
    vnfdId: 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21',
    edit: { [DF]: withVnfExtCp },
  });
}

let model: Promise<Vnfd> | undefined;

/** The variant's VNFD model, for driver tests. */
export function extCpVnfd(): Promise<Vnfd> {
  model ??= (async () => {
    const { zip, vnfdId } = await extCpPackage();
    const file = join(tmpdir(), `bosun-ext-cp-${vnfdId}.zip`);
    await writeFile(file, zip);
    try {
      const read = await readPackage(file, { imageHashMismatch: 'warning' });
      if (!read.vnfd) throw new Error(`ext-cp variant: ${read.diagnostics.map((d) => d.message).join('; ')}`);
      return read.vnfd;
    } finally {
      await rm(file, { force: true });
    }
  })();
  return model;
}
