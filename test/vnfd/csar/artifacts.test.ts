import assert from 'node:assert/strict';
import { test } from 'node:test';
import { additionalArtifacts, isImagePath, mergeArtifacts } from '../../../src/vnfd/csar/artifacts.ts';
import type { ArtifactEntry } from '../../../src/vnfd/csar/csar-info.ts';

const entry = (
  path: string,
  declaredIn: string,
  hash = 'aa',
  algorithmAsWritten = 'SHA-256',
): ArtifactEntry => ({
  path,
  declaredIn,
  algorithmAsWritten,
  algorithm: 'sha-256',
  hash,
  image: isImagePath(path),
});

test('image extensions are those of SOL004/Tacker, case-insensitive', () => {
  for (const ext of [
    'raw',
    'vhd',
    'vhdx',
    'vmdk',
    'vdi',
    'iso',
    'ploop',
    'qcow2',
    'aki',
    'ari',
    'ami',
    'img',
    'QCOW2',
  ]) {
    assert.equal(isImagePath(`Files/images/disk.${ext}`), true, ext);
  }
  assert.equal(isImagePath('Scripts/install.sh'), false);
  assert.equal(isImagePath('Files/images/img'), false);
});

test('the same declaration twice (TOSCA.meta and manifest, or twice in one) is merged', () => {
  const merged = mergeArtifacts(
    [entry('Scripts/install.sh', 'TOSCA.meta'), entry('Scripts/install.sh', 'TOSCA.meta')],
    [entry('Scripts/install.sh', 'vnf.mf', 'AA'), entry('Scripts/other.sh', 'vnf.mf')],
  );
  assert.deepEqual(
    merged.map((a) => [a.path, a.declaredIn]),
    [
      ['Scripts/install.sh', 'TOSCA.meta'],
      ['Scripts/other.sh', 'vnf.mf'],
    ],
  );
});

test('conflicting declarations of one path are both kept (both are verified)', () => {
  const merged = mergeArtifacts([entry('a.sh', 'TOSCA.meta', 'aa')], [entry('a.sh', 'vnf.mf', 'bb')]);
  assert.equal(merged.length, 2);
});

test('additionalArtifacts: hashed non-images, one per path, sorted, algorithm as written', () => {
  const artifacts = [
    entry('Scripts/z.sh', 'vnf.mf', 'zz', 'sha-256'),
    entry('Files/images/disk.img', 'vnf.mf'),
    entry('Files/a.yaml', 'TOSCA.meta', 'a1'),
    entry('Files/a.yaml', 'vnf.mf', 'a2'),
    { path: 'Files/nohash.yaml', declaredIn: 'vnf.mf', image: false },
  ];
  assert.deepEqual(additionalArtifacts({ artifacts }), [
    { artifactPath: 'Files/a.yaml', checksum: { algorithm: 'SHA-256', hash: 'a1' } },
    { artifactPath: 'Scripts/z.sh', checksum: { algorithm: 'sha-256', hash: 'zz' } },
  ]);
});
