/**
 * The real Tacker sample packages: every valid one loads from its entry definitions without
 * errors and yields the expected flavours; the two packages that are invalid at the TOSCA level
 * fail with the expected text; the others (rejected by other layers) do not crash the loader.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { openZipPackage } from '../../../src/vnfd/csar/zip-reader.ts';
import { formatDiagnostic } from '../../../src/vnfd/diagnostics.ts';
import { loadTosca } from '../../../src/vnfd/tosca/load.ts';
import { toBytes } from '../../../src/vnfd/tosca/scalar-units.ts';
import { SAMPLES_DIR } from '../../support/samples.ts';

const SAMPLES = SAMPLES_DIR;

interface Expected {
  file: string;
  valid: boolean;
  entryDefinitions?: string;
  flavours?: string[];
  vnfdId?: string;
  vnfProvider?: string;
  errorContains?: string;
}

const expected: Expected[] = JSON.parse(readFileSync(`${SAMPLES}/expected.json`, 'utf8'));

/** Packages rejected at the TOSCA level, with their entry definitions. */
const TOSCA_INVALID: Record<string, string> = {
  'test_csar_utils_data__sample_vnfpkg_no_meta_single_vnfd.zip': 'vnfd_helloworld_single.yaml',
  'etc_samples__sample_vnf_package_csar_in_meta_and_manifest.zip': 'Definitions/sample_vnfd_top.yaml',
};

async function open(file: string) {
  const opened = await openZipPackage(`${SAMPLES}/${file}`);
  assert.ok(opened.files, `${file} opens: ${JSON.stringify(opened.diagnostics)}`);
  return opened.files;
}

describe('Tacker samples', () => {
  for (const e of expected.filter((x) => x.valid)) {
    it(`${e.file} loads with its flavours`, async () => {
      const files = await open(e.file);
      try {
        const r = await loadTosca(files, e.entryDefinitions!);
        const errs = r.diagnostics.filter((d) => d.severity === 'error');
        assert.deepEqual(errs.map(formatDiagnostic), []);
        assert.equal(r.entry.file, e.entryDefinitions);
        const flavours = r.templates
          .map((t) => t.topology?.substitutionMappings?.properties.flavour_id)
          .filter((f) => f !== undefined)
          .sort();
        assert.deepEqual(flavours, e.flavours);
        // The VNF node of the entry template carries the package identity.
        const vnf = Object.values(r.entry.topology?.nodeTemplates ?? {}).find((n) =>
          r.types.isA(n.type, 'tosca.nodes.nfv.VNF'),
        );
        assert.ok(vnf, 'the entry template has a VNF node');
        assert.equal(vnf.properties.descriptor_id, e.vnfdId);
        assert.equal(vnf.properties.provider, e.vnfProvider);
      } finally {
        await files.close();
      }
    });
  }

  for (const [file, entry] of Object.entries(TOSCA_INVALID)) {
    const e = expected.find((x) => x.file === file)!;
    it(`${file} is rejected naming ${e.errorContains}`, async () => {
      const files = await open(file);
      try {
        const r = await loadTosca(files, entry);
        const errs = r.diagnostics.filter((d) => d.severity === 'error');
        assert.ok(
          errs.some((d) => d.message.toLowerCase().includes(e.errorContains!.toLowerCase())),
          errs.map(formatDiagnostic).join('\n'),
        );
        assert.ok(
          errs.every((d) => d.file && d.line && d.column),
          'every error has file:line:column',
        );
      } finally {
        await files.close();
      }
    });
  }

  it('the other invalid samples load without throwing', async () => {
    for (const e of expected.filter((x) => !x.valid && !TOSCA_INVALID[x.file])) {
      const files = await open(e.file);
      try {
        let entry: string | undefined;
        if (files.has('TOSCA-Metadata/TOSCA.meta')) {
          entry = /Entry-Definitions:\s*(\S+)/.exec(await files.readText('TOSCA-Metadata/TOSCA.meta'))?.[1];
        } else {
          entry = files.names.find((n) => !n.includes('/') && /\.ya?ml$/.test(n));
        }
        assert.ok(entry, e.file);
        const r = await loadTosca(files, entry);
        assert.ok(Array.isArray(r.diagnostics));
      } finally {
        await files.close();
      }
    }
  });

  it('keeps scalar-unit values as written, with locations, for the model layer', async () => {
    const files = await open('vnflcm1.zip');
    try {
      const r = await loadTosca(files, 'Definitions/helloworld3_top.vnfd.yaml');
      const flavour = r.templates.find((t) => t.file === 'Definitions/helloworld3_df_simple.yaml');
      const storage = flavour?.topology?.nodeTemplates.VirtualStorage;
      assert.ok(storage);
      const image = storage.properties.sw_image_data as Record<string, unknown>;
      assert.equal(image.size, '1 GB');
      assert.equal(toBytes(image.min_ram), 256_000_000);
      assert.equal(storage.artifacts.sw_image.path, 'Files/images/cirros-0.5.2-x86_64-disk.img');
      assert.equal(storage.artifacts.sw_image.type, 'tosca.artifacts.nfv.SwImage');
      assert.deepEqual(storage.propertyLocs.sw_image_data?.file, 'Definitions/helloworld3_df_simple.yaml');
      // The top-level VNF keeps flavour_id as an unevaluated get_input (no default), as Tacker expects.
      assert.deepEqual(r.entry.topology?.nodeTemplates.VNF.properties.flavour_id, {
        get_input: 'selected_flavour',
      });
      // The flavour's VNF node gets the VNF type's defaults.
      assert.equal(
        flavour?.topology?.nodeTemplates.VNF.properties.descriptor_id,
        '5541a044-fc16-5ec2-a3ce-97fd313d1fe9',
      );
    } finally {
      await files.close();
    }
  });
});
