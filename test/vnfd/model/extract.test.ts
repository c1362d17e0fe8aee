import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractVnfd } from '../../../src/vnfd/model/extract.ts';
import type { Vnfd } from '../../../src/vnfd/model/vnfd.ts';
import { csar, IDENTITY, load, template } from './contract-fixture.ts';
import { DF, standard, TOP } from './standard-vnfd.ts';

const FILES = [
  'BaseHOT/simple/nested/VDU1.yaml',
  'BaseHOT/simple/simple_hot.yaml',
  'BaseHOT/other/x.yaml',
  'Definitions/top.yaml',
  'Files/kubernetes/deployment.yaml',
  'Files/chart-0.1.tgz',
  'Files/kubernetes/chart/Chart.yaml',
  'Files/kubernetes/chart/templates/deployment.yaml',
  'main.tf',
];

function ok(): Vnfd {
  const r = extractVnfd(
    standard(),
    csar([
      { path: 'Scripts/mgmt.py', algorithm: 'sha-256', algorithmAsWritten: 'SHA-256', hash: 'aa' },
      { path: 'Files/other/manifest.yaml', algorithm: 'sha-256', algorithmAsWritten: 'SHA-256', hash: 'bb' },
      {
        path: 'Files/images/cirros.img',
        image: true,
        algorithm: 'sha-256',
        algorithmAsWritten: 'SHA-256',
        hash: 'cc',
      },
    ]),
    { fileNames: FILES },
  );
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  assert.ok(r.vnfd);
  return r.vnfd;
}

describe('extractVnfd: VNF node', () => {
  it('reads the identity and VNF-level properties of the entry VNF node', () => {
    const { vnf, entryDefinitions } = ok();
    assert.equal(entryDefinitions, TOP);
    assert.equal(vnf.descriptorId, IDENTITY.descriptor_id);
    assert.equal(vnf.descriptorVersion, '1.0');
    assert.equal(vnf.provider, 'Company');
    assert.equal(vnf.productName, 'Sample VNF');
    assert.equal(vnf.softwareVersion, '1.0');
    assert.deepEqual(vnf.vnfmInfo, ['Tacker']);
    assert.deepEqual(vnf.localizationLanguages, ['en']);
    assert.deepEqual(vnf.configurableProperties, { is_autoheal_enabled: true });
    assert.deepEqual(vnf.modifiableAttributes, { extensions: { a: 1 } });
    assert.equal(vnf.nodeType, 'company.provider.VNF');
  });

  it('names each missing identity property in an error', () => {
    const r = extractVnfd(
      standard((top) => {
        top.nodes = { VNF: { type: 'tosca.nodes.nfv.VNF', properties: { provider: 'Company' } } };
      }),
      csar(),
    );
    assert.equal(r.vnfd, undefined);
    const missing = r.diagnostics.filter((d) => d.code === 'VNFD_VNF_PROPERTY_MISSING');
    for (const p of ['descriptor_id', 'descriptor_version', 'product_name', 'software_version']) {
      assert.ok(
        missing.some((d) => d.message.includes(p) && d.file === TOP),
        `no error names ${p}`,
      );
    }
    assert.ok(!missing.some((d) => d.message.includes(' no provider')));
  });

  it('falls back to the type default when a property is an unevaluated function', () => {
    const r = extractVnfd(
      standard((top) => {
        const vnf = top.nodes?.VNF;
        if (vnf?.properties) vnf.properties.descriptor_id = { get_input: 'descriptor_id' };
      }),
      csar(),
    );
    assert.equal(r.vnfd?.vnf.descriptorId, 'default-id');
  });

  it('rejects an entry template without a VNF node', () => {
    const r = extractVnfd(
      standard((top) => {
        top.nodes = {};
      }),
      csar(),
    );
    assert.equal(r.vnfd, undefined);
    assert.ok(
      r.diagnostics.some((d) => d.code === 'VNFD_VNF_NODE_MISSING' && d.message.includes('descriptor_id')),
    );
  });
});

describe('extractVnfd: flavours', () => {
  it('makes one flavour per substitution-mapped template, sorted', () => {
    const tosca = standard();
    const second = template({
      file: 'Definitions/df_complex.yaml',
      substitution: { nodeType: 'company.provider.VNF', properties: { flavour_id: 'complex' } },
      nodes: { VNF: { type: 'company.provider.VNF', properties: { flavour_description: 'complex one' } } },
    });
    tosca.templates.push(second);
    const r = extractVnfd(tosca, csar());
    assert.deepEqual(
      r.vnfd?.flavours.map((f) => [f.flavourId, f.file, f.description]),
      [
        ['complex', 'Definitions/df_complex.yaml', 'complex one'],
        ['simple', DF, 'A simple flavour'],
      ],
    );
  });

  it('rejects a package without any flavour', () => {
    const r = extractVnfd(
      standard((_top, df) => {
        delete df.substitution;
      }),
      csar(),
    );
    assert.equal(r.vnfd, undefined);
    assert.ok(r.diagnostics.some((d) => d.code === 'VNFD_NO_FLAVOUR' && /flavour/i.test(d.message)));
  });

  it('rejects a non-string flavour_id and a flavour defined twice', () => {
    const tosca = standard((_top, df) => {
      if (df.substitution) df.substitution.properties = { flavour_id: 3 };
    });
    assert.ok(extractVnfd(tosca, csar()).diagnostics.some((d) => d.code === 'VNFD_FLAVOUR_ID_INVALID'));
    const twice = standard();
    twice.templates.push({ ...twice.templates[1], file: 'Definitions/again.yaml' });
    assert.ok(extractVnfd(twice, csar()).diagnostics.some((d) => d.code === 'VNFD_FLAVOUR_DUPLICATE'));
  });

  it('single-file VNFD: flavour_id written on the VNF node counts, a type default does not', () => {
    const single = (written: boolean) =>
      load(
        template({
          file: TOP,
          substitution: { nodeType: 'company.provider.VNF', properties: { provider: 'Company' } },
          nodes: {
            VNF: {
              type: 'company.provider.VNF',
              properties: { ...IDENTITY, flavour_id: 'simple' },
              written: written ? undefined : Object.keys(IDENTITY),
            },
          },
        }),
      );
    assert.deepEqual(
      extractVnfd(single(true), csar()).vnfd?.flavours.map((f) => f.flavourId),
      ['simple'],
    );
    const r = extractVnfd(single(false), csar());
    assert.equal(r.vnfd, undefined);
    assert.ok(r.diagnostics.some((d) => /flavour/i.test(d.message)));
  });
});

describe('extractVnfd: flavour content', () => {
  it('reads VDUs (derived types too) with profile, compute, storages and image', () => {
    const [vdu1, vdu2] = ok().flavours[0].vdus;
    assert.equal(vdu1.id, 'VDU1');
    assert.deepEqual(vdu1.vduProfile, { minNumberOfInstances: 1, maxNumberOfInstances: 3 });
    assert.equal(vdu1.virtualCompute?.numVirtualCpu, 2);
    assert.equal(vdu1.virtualCompute?.virtualMemSize, 512_000_000);
    assert.deepEqual(vdu1.virtualCompute?.localStorageSizes, [3 * 2 ** 30]);
    assert.deepEqual(vdu1.virtualCompute?.requestedAdditionalCapabilityNames, ['m1.tiny']);
    assert.deepEqual(vdu1.virtualStorages, ['VirtualStorage']);
    assert.equal(vdu1.swImage, 'VDU1');
    assert.equal(vdu1.bootOrder, false);
    assert.equal(vdu2.id, 'VDU2');
    assert.equal(vdu2.type, 'company.Vdu.Compute');
    assert.equal(vdu2.swImage, undefined);
  });

  it('reads CPs with their bindings and links, VLs and external CPs', () => {
    const f = ok().flavours[0];
    assert.deepEqual(
      f.vduCps.map((c) => [c.id, c.vdu, c.virtualLink, c.order]),
      [
        ['CP1', 'VDU1', undefined, 0],
        ['CP2', 'VDU2', 'internalVL1', 1],
      ],
    );
    assert.equal(f.vduCps[0].vnicType, 'direct');
    assert.deepEqual(
      f.virtualLinks.map((v) => [v.id, v.layerProtocols, v.description]),
      [['internalVL1', ['ipv4'], 'internal']],
    );
    assert.deepEqual(
      f.extCps.map((c) => [c.id, c.internalVirtualLink, c.externalVirtualLink]),
      [['ExtCP', 'internalVL1', 'virtual_link_external2']],
    );
    assert.deepEqual(f.externalRequirements.virtual_link_external, ['CP1', 'virtual_link']);
  });

  it('reads storages of each kind with sizes in bytes', () => {
    assert.deepEqual(
      ok().flavours[0].storages.map((s) => [s.id, s.kind, s.sizeOfStorage, s.swImage]),
      [
        ['ObjStore', 'object', 5 * 2 ** 30, undefined],
        ['VirtualStorage', 'block', 30_000_000_000, 'VirtualStorage'],
      ],
    );
  });

  it('reads software images like VnfPkgInfo.softwareImages', () => {
    const vnfd = ok();
    assert.deepEqual(vnfd.softwareImages, vnfd.flavours[0].softwareImages);
    const [vdu1, vol] = vnfd.softwareImages;
    assert.deepEqual(
      { ...vdu1, supportedVirtualisationEnvironments: undefined },
      {
        id: 'VDU1',
        flavourId: 'simple',
        name: 'cirros',
        provider: '',
        version: '0.5.2',
        checksum: { algorithm: 'sha-256', hash: 'abc' },
        containerFormat: 'bare',
        diskFormat: 'qcow2',
        minDisk: 1_000_000_000,
        minRam: 0,
        size: 1879048192,
        imagePath: 'Files/images/cirros.img',
        packagePath: 'Files/images/cirros.img',
        artifactName: 'sw_image',
        operatingSystem: undefined,
        supportedVirtualisationEnvironments: undefined,
      },
    );
    assert.equal(vol.id, 'VirtualStorage');
    assert.equal(vol.provider, 'Acme');
    assert.equal(vol.minRam, 8590458880);
    assert.equal(vol.size, 2_000_000_000);
    assert.equal(vol.imagePath, 'Files/images/vol.img');
  });

  it('joins instantiation levels with VDU and VL levels', () => {
    const levels = ok().flavours[0].instantiationLevels;
    assert.equal(levels?.defaultLevel, 'level_1');
    assert.deepEqual(
      levels?.levels.map((l) => [l.id, l.description, l.scaleInfo, l.vduInstances, l.virtualLinkBitrates]),
      [
        ['level_1', 'small', { worker: 0 }, { VDU1: 1 }, { internalVL1: { root: 1 } }],
        ['level_2', 'large', { worker: 1 }, { VDU1: 3 }, {}],
      ],
    );
  });

  it('reads scaling aspects with per-VDU deltas and initial deltas', () => {
    const f = ok().flavours[0];
    assert.deepEqual(f.scalingAspects, [
      {
        id: 'worker',
        name: 'worker_aspect',
        description: 'd',
        maxScaleLevel: 2,
        stepDeltas: ['delta_1'],
        vduDeltas: { VDU2: { delta_1: 1 } },
        virtualLinkBitrateDeltas: {},
      },
    ]);
    assert.deepEqual(f.initialDeltas, { VDU2: 1 });
  });

  it('expands placement groups in affinity and anti-affinity rules (derived rule types too)', () => {
    const f = ok().flavours[0];
    assert.deepEqual(f.placementGroups, [{ name: 'group1', members: ['VDU1', 'VDU2'] }]);
    assert.deepEqual(
      f.placementRules.map((r) => [r.name, r.kind, r.scope, r.targets, r.members]),
      [
        ['aff', 'affinity', 'nfvi_node', ['VDU1', 'internalVL1'], ['VDU1', 'internalVL1']],
        ['anti', 'anti-affinity', 'zone', ['group1'], ['VDU1', 'VDU2']],
      ],
    );
  });

  it('lists Vnflcm hooks of the flavour VNF node, completed by the entry VNF node', () => {
    const ops = ok().flavours[0].lcmOperations;
    assert.deepEqual(
      ops.map((o) => [o.name, o.node, o.implementation, o.artifact?.path]),
      [
        ['heal_start', 'VNF', undefined, undefined],
        ['instantiate_rollback_end', 'VNF', 'script', 'Scripts/sample.py'],
        ['instantiate_start', 'VNF', 'script', 'Scripts/sample.py'],
      ],
    );
    assert.equal(ops[1].artifact?.type, 'tosca.artifacts.Implementation.Python');
    assert.equal(ops[0].loc.file, DF);
  });

  it('finds BaseHOT per flavour, Kubernetes manifests (not chart sources), Helm charts, Terraform and additional artifacts', () => {
    const vnfd = ok();
    assert.deepEqual(vnfd.flavours[0].baseHot, {
      main: 'BaseHOT/simple/simple_hot.yaml',
      nested: ['BaseHOT/simple/nested/VDU1.yaml'],
    });
    assert.deepEqual(vnfd.infraArtifacts, {
      kubernetesManifests: ['Files/kubernetes/deployment.yaml', 'Files/other/manifest.yaml'],
      helmCharts: ['Files/chart-0.1.tgz'],
      terraformFiles: ['main.tf'],
    });
    assert.deepEqual(vnfd.additionalArtifacts, [
      { artifactPath: 'Files/other/manifest.yaml', checksum: { algorithm: 'SHA-256', hash: 'bb' } },
      { artifactPath: 'Scripts/mgmt.py', checksum: { algorithm: 'SHA-256', hash: 'aa' } },
    ]);
  });
});

describe('extractVnfd: names Object.prototype has', () => {
  it('keeps a VDU named __proto__ and a delta named constructor in the scaling maps', () => {
    const renamed = standard((_top, df) => {
      const text = JSON.stringify(df)
        .replaceAll('"VDU2"', '"__proto__"')
        .replaceAll('"delta_1"', '"constructor"');
      Object.assign(df, JSON.parse(text));
    });
    const r = extractVnfd(renamed, csar([]), { fileNames: FILES });
    const f = r.vnfd!.flavours[0];
    const aspect = f.scalingAspects[0];
    assert.deepEqual(aspect.stepDeltas, ['constructor']);
    assert.deepEqual(Object.entries(aspect.vduDeltas), [['__proto__', { constructor: 1 }]]);
    assert.equal(Object.getPrototypeOf(aspect.vduDeltas), Object.prototype);
    assert.deepEqual(Object.entries(f.initialDeltas), [['__proto__', 1]]);
  });
});
