/**
 * The Tacker samples end to end through the model: every valid package yields the identity,
 * flavours and software images of expected.json with no model error; the packages rejected
 * by VNFD model rules get an error naming `errorContains`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readCsar } from '../../../src/vnfd/csar/read-csar.ts';
import { openZipPackage } from '../../../src/vnfd/csar/zip-reader.ts';
import { type ExtractResult, extractVnfd } from '../../../src/vnfd/model/extract.ts';
import { loadTosca } from '../../../src/vnfd/tosca/load.ts';
import { EXPECTED_SAMPLES, SAMPLES_DIR } from '../../support/samples.ts';

const SAMPLES = SAMPLES_DIR;

const expected = EXPECTED_SAMPLES;

/** Invalid samples whose defect is one the VNFD model (not the CSAR reader or loader) reports. */
const MODEL_REJECTS = new Set([
  'sample_vnf_package_csar_with_short_notation.zip',
  'test_csar_utils_data__csar_without_flavour_info_in_main_template.zip',
  'test_csar_utils_data__csar_without_instantiation_level.zip',
  'test_csar_utils_data__csar_without_sw_image_data.zip',
  'test_csar_utils_data__csar_with_missing_sw_image_data_in_main_template.zip',
  'csar_multiple_sw_image_data_with_short_notation.zip',
]);

const opened: { close(): Promise<void> }[] = [];
after(async () => {
  for (const f of opened) await f.close();
});

async function extract(file: string): Promise<ExtractResult> {
  const pkg = await openZipPackage(join(SAMPLES, file));
  assert.ok(pkg.files, `${file} does not open: ${JSON.stringify(pkg.diagnostics)}`);
  opened.push(pkg.files);
  const info = await readCsar(pkg.files);
  assert.ok(info.entryDefinitions, `${file}: no entry definitions`);
  const tosca = await loadTosca(pkg.files, info.entryDefinitions);
  return extractVnfd(tosca, info, { fileNames: pkg.files.names });
}

describe('Tacker samples: valid packages give expected.json facts', () => {
  for (const e of expected.filter((x) => x.valid)) {
    it(e.file, async () => {
      const r = await extract(e.file);
      assert.deepEqual(
        r.diagnostics.filter((d) => d.severity === 'error'),
        [],
      );
      const vnfd = r.vnfd;
      assert.ok(vnfd);
      assert.equal(vnfd.vnf.descriptorId, e.vnfdId);
      assert.equal(vnfd.vnf.provider, e.vnfProvider);
      assert.equal(vnfd.vnf.productName, e.vnfProductName);
      assert.equal(vnfd.vnf.softwareVersion, e.vnfSoftwareVersion);
      assert.equal(vnfd.vnf.descriptorVersion, e.vnfdVersion);
      assert.deepEqual(
        vnfd.flavours.map((f) => f.flavourId),
        e.flavours,
      );
      assert.deepEqual(
        vnfd.softwareImages.map((i) => ({
          id: i.id,
          name: i.name,
          provider: i.provider,
          version: i.version,
          containerFormat: i.containerFormat,
          diskFormat: i.diskFormat,
          minDisk: i.minDisk,
          minRam: i.minRam,
          size: i.size,
          checksum: i.checksum,
          imagePath: i.imagePath,
          flavourId: i.flavourId,
        })),
        e.softwareImages,
      );
    });
  }
});

describe('Tacker samples: packages the VNFD model rejects', () => {
  for (const e of expected.filter((x) => MODEL_REJECTS.has(x.file))) {
    it(`${e.file} (${e.errorContains})`, async () => {
      const r = await extract(e.file);
      assert.equal(r.vnfd, undefined);
      const want = (e.errorContains ?? '').toLowerCase();
      assert.ok(
        r.diagnostics.some((d) => d.severity === 'error' && d.message.toLowerCase().includes(want)),
        `no error mentions ${e.errorContains}: ${JSON.stringify(r.diagnostics)}`,
      );
    });
  }

  it('covers every model-level rejection listed in expected.json', () => {
    assert.equal(expected.filter((x) => MODEL_REJECTS.has(x.file)).length, MODEL_REJECTS.size);
  });
});
