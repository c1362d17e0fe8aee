/**
 * The package the whole-server tests on mini-openstack onboard: Tacker's vnflcm2 sample (one VDU
 * booting its own image, a scaling aspect of one VDU1 per step), its VDU on m1.tiny (the grant
 * names that Nova flavour) with `count` VNFCs at the default level and up to three, and extra
 * policies; and the registration of mini-openstack as a VIM of a server under test.
 */
import assert from 'node:assert/strict';
import { sampleVariant } from '../../http/vnflcm/sample-package.ts';
import { http } from '../../support/http.ts';
import { type MiniOpenStack, OPENSTACK_VIM_TYPE, testPrefix } from '../../support/mini-openstack.ts';

const SAMPLE = 'vnflcm2.zip';
const SAMPLE_VNFD_ID = 'ea7a121f-5f59-565c-aee6-9145062ae9a9';
const DF = 'Definitions/helloworld3_df_simple.yaml';

/** The sample's scaling aspect (one VDU1 a step, up to level 2). */
export const ASPECT = 'worker_instance';

/** The sample with `count` VNFCs of VDU1 at its default level on m1.tiny, and `extra` policies. */
export function openStackVariant(count: number, extra = '') {
  return sampleVariant(SAMPLE, {
    vnfdId: SAMPLE_VNFD_ID,
    edit: {
      [DF]: (t) =>
        t
          .replace('          max_number_of_instances: 1\n', '          max_number_of_instances: 3\n')
          .replaceAll(
            '            instantiation_level_1:\n              number_of_instances: 1\n',
            `            instantiation_level_1:\n              number_of_instances: ${count}\n`,
          )
          .replace('  policies:\n', `  policies:\n${extra}`)
          // The Nova flavour the grant names (mini-openstack's smallest).
          .replace(
            '          properties:\n            virtual_memory:\n              virtual_mem_size: 512 MB\n',
            '          properties:\n            requested_additional_capabilities:\n              properties:\n                requested_additional_capability_name: m1.tiny\n                support_mandatory: true\n                target_performance_parameters:\n                  entry_schema: test\n            virtual_memory:\n              virtual_mem_size: 512 MB\n',
          ),
    },
  });
}

/** Registers mini-openstack (admin) with the server at `base`; resolves to the VIM's id. */
export async function registerVim(base: string, cloud: MiniOpenStack, what: string): Promise<string> {
  const registered = await http<{ id: string }>(base, 'POST', '/bosun/v1/vims', {
    body: {
      name: testPrefix(what),
      vimType: OPENSTACK_VIM_TYPE,
      interfaceInfo: cloud.admin.interfaceInfo,
      accessInfo: cloud.admin.accessInfo,
    },
  });
  assert.equal(registered.status, 201, registered.text);
  return registered.body.id;
}
