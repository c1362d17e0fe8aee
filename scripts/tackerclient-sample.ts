/**
 * Completes the Tacker CLI acceptance kit's sample package (shared/tools/tackerclient/
 * make-sample-csar.sh, unpacked into DIR) into a VNF package a real VNFM can onboard and run, in
 * place; `bosun package build DIR -o OUT.zip` then zips it. The kit's package keeps its names —
 * flavour `simple`, aspect `VDU1_scale`, VDU `VDU1` with its CP `VDU1_CP1`, artifact
 * `Scripts/install.sh`, the vnfdId — which are the defaults of the kit's flow.sh. What the kit
 * leaves out, because its own stand-in server never reads a VNFD, is added:
 *
 * - the ETSI SOL001 v2.6.1 type definitions (Bosun's bundled copies) in place of the kit's
 *   two-line stand-ins, which define no type;
 * - `vnfm_info` values matching SOL001's pattern (the kit's `Tacker` does not);
 * - `substitution_mappings` naming the flavour (a VNFD without one has no deployment flavour);
 * - a VduScalingAspectDeltas policy giving `delta_1` of `VDU1_scale` one VDU1 instance, so that
 *   scaling adds and removes a VNFC (without it the aspect scales nothing).
 *
 * Usage: node scripts/tackerclient-sample.ts DIR
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';

const VNFD = 'Definitions/sample_vnfd_top.yaml';
const SOL001 = ['etsi_nfv_sol001_common_types.yaml', 'etsi_nfv_sol001_vnfd_types.yaml'];
const BUNDLED = new URL('../src/vnfd/tosca/sol001/v2.6.1/', import.meta.url).pathname;

function fail(message: string): never {
  process.stderr.write(`tackerclient-sample: ${message}\n`);
  process.exit(1);
}

const dir = process.argv[2];
if (!dir || process.argv.length !== 3) fail('usage: node scripts/tackerclient-sample.ts DIR');

for (const file of SOL001) copyFileSync(join(BUNDLED, file), join(dir, 'Definitions', file));

const path = join(dir, VNFD);
const doc = parseDocument(readFileSync(path, 'utf8'));
const topology = doc.get('topology_template');
if (!isMap(topology)) fail(`${VNFD} has no topology_template`);
const nodes = topology.get('node_templates');
const vnf = isMap(nodes) ? nodes.get('VNF') : undefined;
if (!isMap(vnf) || !isMap(vnf.get('properties'))) fail(`${VNFD} has no VNF node template with properties`);
const props = vnf.get('properties') as YAMLMap;
const flavourId = props.get('flavour_id');
if (typeof flavourId !== 'string') fail(`${VNFD}: the VNF node has no flavour_id`);

props.set('vnfm_info', doc.createNode(['etsivnfm:v2.6.1']));
if (!topology.has('substitution_mappings')) {
  const mappings = doc.createNode({
    node_type: 'tosca.nodes.nfv.VNF',
    properties: { flavour_id: flavourId },
  });
  // First in topology_template, where VNFDs usually have it.
  topology.items.unshift(doc.createPair('substitution_mappings', mappings));
}
const policies = topology.get('policies');
if (!isSeq(policies)) fail(`${VNFD} has no policies`);
const policyTypes = (policies as YAMLSeq).items.flatMap((p) =>
  isMap(p) ? p.items.map((i) => (isMap(i.value) ? String(i.value.get('type')) : '')) : [],
);
const hasDeltas = policyTypes.includes('tosca.policies.nfv.VduScalingAspectDeltas');
if (!hasDeltas) {
  (policies as YAMLSeq).add(
    doc.createNode({
      VDU1_scaling_aspect_deltas: {
        type: 'tosca.policies.nfv.VduScalingAspectDeltas',
        properties: { aspect: 'VDU1_scale', deltas: { delta_1: { number_of_instances: 1 } } },
        targets: ['VDU1'],
      },
    }),
  );
}
writeFileSync(path, doc.toString({ lineWidth: 0 }));
