import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { extractPackage } from '../support/extract.ts';
import { SAMPLES_DIR } from '../support/samples.ts';
import { tempDir } from '../support/temp.ts';
import { patternFile } from '../vnfd/tacker-patterns.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;

function bosun(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(BOSUN, args, { env: { PATH: process.env.PATH } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('bosun package', () => {
  test('lint a valid zip: exit 0 and a summary of what was understood', async () => {
    const r = await bosun(['package', 'lint', join(SAMPLES_DIR, 'vnflcm4.zip')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /vnfdId\s+[0-9a-f-]{36}/);
    assert.match(r.stdout, /flavour\s+simple/);
    assert.match(r.stdout, /VDU\s+VDU1 .*instances \d+\.\.\d+/);
    assert.match(r.stdout, /valid \(0 error\(s\)/);
  });

  test('lint an invalid zip: exit 1, each problem with file:line:column and code', async () => {
    const r = await bosun([
      'package',
      'lint',
      join(SAMPLES_DIR, 'etc_samples__sample_vnf_package_csar_in_meta_and_manifest.zip'),
    ]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^Definitions\/\S+\.yaml:\d+:\d+: error TOSCA_CONSTRAINT: .*Company Provider/m);
    assert.match(r.stdout, /INVALID \(\d+ error\(s\)/);
  });

  test('lint warns about a scaling aspect that can never scale (its VDU has min = max)', async () => {
    const r = await bosun(['package', 'lint', join(SAMPLES_DIR, 'vnflcm2.zip')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /^Definitions\/helloworld3_df_simple\.yaml:\d+:\d+: warning VNFD_SCALING_ASPECT_FIXED: scaling aspect worker_instance can never scale: VDU1 has vdu_profile min = max = 1/m,
    );
  });

  test('lint a package Tacker accepts: valid with a warning, INVALID with --strict', async () => {
    const file = await patternFile('hostPathArtifact');
    try {
      const lenient = await bosun(['package', 'lint', file.path]);
      assert.equal(lenient.code, 0, lenient.stdout + lenient.stderr);
      assert.match(lenient.stdout, /: warning TOSCA_ARTIFACT_HOST_PATH: .*\/opt\/stack\/tacker\//);
      assert.match(
        lenient.stdout,
        /^ {2}host path {2}\/opt\/stack\/tacker\/\S+\/vnflcm_noop\.py: built-in driver noop \(hooks .*instantiate_start/m,
      );
      const strict = await bosun(['package', 'lint', '--strict', file.path]);
      assert.equal(strict.code, 1);
      assert.match(strict.stdout, /: error TOSCA_ARTIFACT_HOST_PATH: .*strict/);
      assert.match(strict.stdout, /INVALID \(1 error\(s\)/);
    } finally {
      await file.cleanup();
    }
  });

  test('--json carries the verdict, the diagnostics and the model', async () => {
    const r = await bosun(['package', 'lint', '--json', join(SAMPLES_DIR, 'vnflcm1.zip')]);
    assert.equal(r.code, 0);
    const report = JSON.parse(r.stdout);
    assert.equal(report.valid, true);
    assert.equal(report.vnfd.vnf.descriptorId, '5541a044-fc16-5ec2-a3ce-97fd313d1fe9');
    assert.ok(Array.isArray(report.diagnostics));
  });

  test('build a folder: hashes rewritten, the zip and the folder both lint clean', async () => {
    const work = tempDir('bosun-pkg-cli-');
    const dir = join(work, 'pkg');
    await extractPackage(join(SAMPLES_DIR, 'sample_vnf_package_csar_meta.zip'), dir);
    // A vendor edits a hashed artifact: the old hash no longer matches.
    await writeFile(join(dir, 'Scripts', 'install.sh'), '#!/bin/sh\necho edited\n');
    const stale = await bosun(['package', 'lint', dir]);
    assert.equal(stale.code, 1);
    assert.match(stale.stdout, /CSAR_HASH_MISMATCH: .*Scripts\/install\.sh/);
    const out = join(work, 'pkg.zip');
    const built = await bosun(['package', 'build', dir, '-o', out]);
    assert.equal(built.code, 0, built.stderr);
    assert.match(built.stdout, /hash written for Scripts\/install\.sh/);
    assert.equal((await bosun(['package', 'lint', out])).code, 0);
    assert.equal((await bosun(['package', 'lint', dir])).code, 0);
    // Same folder, same bytes.
    const again = join(work, 'again.zip');
    await bosun(['package', 'build', dir, '-o', again]);
    assert.ok((await readFile(out)).equals(await readFile(again)));
  });

  test('a path that does not exist: exit 1 with the reason', async () => {
    const r = await bosun(['package', 'lint', '/nonexistent/pkg.zip']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /CSAR_UNREADABLE: cannot read \/nonexistent\/pkg\.zip: ENOENT/);
  });
});
