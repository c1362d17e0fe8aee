/**
 * include_signatures: GET …/manifest gives the .mf without its CMS block unless it is given;
 * GET …/vnfd and …/artifacts/* give a ZIP with the signature files and the certificate.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openZipPackage } from '../../../src/vnfd/csar/zip-reader.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { tempDir } from '../../support/temp.ts';
import { CMS_BLOCK, onboard, SIGNED_SCRIPT, singleFilePackage, V1 } from './support.ts';

/** The entry names of a zip response, and one entry's bytes. */
async function zipOf(res: Response): Promise<{ names: string[]; read: (name: string) => Promise<Buffer> }> {
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/zip');
  const path = join(tempDir('bosun-zip-'), 'response.zip');
  await writeFile(path, Buffer.from(await res.arrayBuffer()));
  const opened = await openZipPackage(path);
  assert.ok(opened.files);
  const files = opened.files;
  const read = async (name: string) => {
    const chunks: Buffer[] = [];
    for await (const c of await files.openStream(name)) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };
  return { names: [...files.names].sort(), read };
}

for (const dialect of DIALECTS) {
  describe(`manifest on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, {
        config: { worker: { pollIntervalMs: 50 }, packages: { signaturePolicy: 'off' } },
      });
    });
    after(() => server.close());

    test('text/plain, CMS block stripped unless include_signatures; 404 without a manifest', async () => {
      const pkg = await onboard(
        server.url,
        await singleFilePackage('5d1b5c4e-0000-4000-8000-00000000e001', { manifest: true }),
      );
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      const plain = await http(server.url, 'GET', `${V1}/${pkg.id}/manifest`);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers.get('content-type'), 'text/plain');
      assert.match(plain.text, /Source: single.yaml/);
      assert.doesNotMatch(plain.text, /BEGIN CMS/);
      const signed = await http(server.url, 'GET', `${V1}/${pkg.id}/manifest?include_signatures`);
      assert.equal(signed.status, 200);
      assert.ok(signed.text.includes(CMS_BLOCK.trim()));
      const bare = await onboard(server.url, await singleFilePackage('5d1b5c4e-0000-4000-8000-00000000e002'));
      assert.ok(isProblem(await http(server.url, 'GET', `${V1}/${bare.id}/manifest`), 404));
      assert.ok(isProblem(await http(server.url, 'GET', `${V1}/${bare.id}/manifest?bogus=1`), 400));
    });

    test('vnfd and artifacts with include_signatures: a ZIP with the signature files and the certificate', async () => {
      const pkg = await onboard(
        server.url,
        await singleFilePackage('5d1b5c4e-0000-4000-8000-00000000e003', { signed: true }),
      );
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      const vnfd = await zipOf(
        await fetch(`${server.url}${V1}/${pkg.id}/vnfd?include_signatures`, {
          headers: { accept: 'application/zip' },
        }),
      );
      assert.deepEqual(vnfd.names, ['single.cert', 'single.yaml', 'single.yaml.sig.cms']);
      // Binary signature bytes come back unchanged.
      assert.deepEqual([...(await vnfd.read('single.yaml.sig.cms'))], [0x30, 0x82, 0x00, 0xee, 0x02]);
      const unsigned = await zipOf(
        await fetch(`${server.url}${V1}/${pkg.id}/vnfd`, { headers: { accept: 'application/zip' } }),
      );
      assert.deepEqual(unsigned.names, ['single.yaml']);
      const asText = await http(server.url, 'GET', `${V1}/${pkg.id}/vnfd?include_signatures`, {
        headers: { accept: 'text/plain' },
      });
      assert.ok(isProblem(asText, 406));
      assert.match(asText.text, /application\/zip/);

      const artifact = await zipOf(
        await fetch(`${server.url}${V1}/${pkg.id}/artifacts/Scripts/run.sh?include_signatures`),
      );
      assert.deepEqual(artifact.names, ['Scripts/run.sh', 'Scripts/run.sh.sig.cms', 'single.cert']);
      assert.equal((await artifact.read('Scripts/run.sh')).toString(), SIGNED_SCRIPT);
      const plain = await http(server.url, 'GET', `${V1}/${pkg.id}/artifacts/Scripts/run.sh`);
      assert.equal(plain.status, 200);
      assert.equal(plain.text, SIGNED_SCRIPT);
    });
  });
}
