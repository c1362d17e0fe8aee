import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildPackage } from '../../../src/vnfd/csar/build.ts';
import { readCsar } from '../../../src/vnfd/csar/read-csar.ts';
import { openZipPackage } from '../../../src/vnfd/csar/zip-reader.ts';
import { digest, IMAGE_PATH, SCRIPT_PATH, validPackage, writeFixture } from '../../support/csar-fixtures.ts';

async function readZip(path: string) {
  const opened = await openZipPackage(path);
  assert.ok(opened.files, JSON.stringify(opened.diagnostics));
  try {
    return { info: await readCsar(opened.files), names: opened.files.names };
  } finally {
    await opened.files.close();
  }
}

test('build → read round trip: stale hashes are rewritten in the folder and the zip verifies', async () => {
  const files = validPackage();
  files[SCRIPT_PATH] = '#!/bin/sh\necho version 2\n';
  files[IMAGE_PATH] = Buffer.alloc(2048, 9);
  const { dir, cleanup } = await writeFixture(files);
  try {
    const out = join(dir, 'out.zip');
    const result = await buildPackage(dir, out);
    assert.deepEqual(result, {
      entries: Object.keys(files).length,
      manifest: 'vnf.mf',
      updated: [IMAGE_PATH, SCRIPT_PATH],
    });
    const manifest = await readFile(join(dir, 'vnf.mf'), 'utf8');
    assert.ok(manifest.includes(`Hash: ${digest('SHA-256', files[SCRIPT_PATH])}`));
    const meta = await readFile(join(dir, 'TOSCA-Metadata/TOSCA.meta'), 'utf8');
    assert.ok(meta.includes(`Hash: ${digest('SHA-256', files[SCRIPT_PATH])}`));
    const { info, names } = await readZip(out);
    assert.deepEqual(info.diagnostics, []);
    assert.ok(info.artifacts.every((a) => a.verified === true));
    assert.deepEqual(names, Object.keys(files).sort());
  } finally {
    await cleanup();
  }
});

test('building twice gives identical bytes and reports nothing to update', async () => {
  const { dir, cleanup } = await writeFixture(validPackage({ layout: 'root-yaml' }));
  const outs = await writeFixture({});
  try {
    const first = await buildPackage(dir, join(outs.dir, 'a.zip'));
    const second = await buildPackage(dir, join(outs.dir, 'b.zip'));
    assert.deepEqual(first.updated, []);
    assert.deepEqual(second, first);
    const a = await readFile(join(outs.dir, 'a.zip'));
    const b = await readFile(join(outs.dir, 'b.zip'));
    assert.ok(a.equals(b));
  } finally {
    await cleanup();
    await outs.cleanup();
  }
});

test('manifest blocks without Algorithm/Hash get them; a stale CMS block is dropped', async () => {
  const files = validPackage({ layout: 'root-yaml' });
  files['vnf.mf'] =
    `Source: ${SCRIPT_PATH}\n\nSource: ${IMAGE_PATH}\nAlgorithm: SHA-512\nHash: 00\n-----BEGIN CMS-----\nMIIB\n-----END CMS-----\n`;
  const { dir, cleanup } = await writeFixture(files);
  try {
    const result = await buildPackage(dir, join(dir, 'pkg.zip'), { algorithm: 'sha-384' });
    assert.deepEqual(result.updated, [IMAGE_PATH, SCRIPT_PATH]);
    const manifest = await readFile(join(dir, 'vnf.mf'), 'utf8');
    assert.equal(
      manifest,
      `Source: ${SCRIPT_PATH}\nAlgorithm: SHA-384\nHash: ${digest('SHA-384', files[SCRIPT_PATH])}\n\nSource: ${IMAGE_PATH}\nAlgorithm: SHA-512\nHash: ${digest('SHA-512', files[IMAGE_PATH])}\n`,
    );
    const { info } = await readZip(join(dir, 'pkg.zip'));
    assert.ok(info.artifacts.every((a) => a.verified === true));
    assert.equal(info.manifest?.signed, false);
  } finally {
    await cleanup();
  }
});

test('a folder without a manifest is just zipped', async () => {
  const { dir, cleanup } = await writeFixture({ 'vnf.yaml': 'x: 1\n', 'Files/a.txt': 'a' });
  try {
    const result = await buildPackage(dir, join(dir, 'pkg.zip'));
    assert.deepEqual(result, { entries: 2, manifest: undefined, updated: [] });
  } finally {
    await cleanup();
  }
});
