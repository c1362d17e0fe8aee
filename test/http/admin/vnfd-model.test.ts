/**
 * GET /bosun/v1/vnf_packages/{id}/vnfd_model (what the web console draws the VNFD viewer and LCM
 * forms from): the model read at onboarding, readable with the package API's read scope in the
 * package's project only, 409 before onboarding; and a failed onboarding keeps the VNFD lines
 * around each error, the package's bytes being gone.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brokenPackage } from '../../console/packages.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { tempDir } from '../../support/temp.ts';
import { addClient, bearer, tokenOf } from '../auth/oauth2-support.ts';
import { createPkg, onboard, sample, V2_HEADERS } from '../vnfpkgm/support.ts';

const MODEL = (id: string) => `/bosun/v1/vnf_packages/${id}/vnfd_model`;

for (const dialect of DIALECTS) {
  describe(`VNFD model for the console (${dialect})`, () => {
    let server: TestServer;
    let p1: Record<string, string>;
    let p2: Record<string, string>;
    let lcmOnly: Record<string, string>;
    before(async () => {
      server = await startTestServer(dialect, { config: { auth: { mode: 'oauth2' } } });
      p1 = bearer(
        await tokenOf(server, await addClient(server, ['vnfpkgm:v2:readonly', 'vnfpkgm:v1:all'], 'p1')),
      );
      p2 = bearer(await tokenOf(server, await addClient(server, ['vnfpkgm:v2:all'], 'p2')));
      lcmOnly = bearer(await tokenOf(server, await addClient(server, ['vnflcm:v2:all'], 'p1')));
    });
    after(() => server.close());

    test('the model of an onboarded package, to its project only', async () => {
      const pkg = await onboard(server.url, sample('sol_v2_common__basic_lcms_max_individual_vnfc.zip'), p1);
      assert.equal(pkg.onboardingState, 'ONBOARDED');
      const res = await http<{
        vnf: { descriptorId: string };
        flavours: {
          flavourId: string;
          vdus: { id: string; vduProfile: object }[];
          scalingAspects: object[];
        }[];
      }>(server.url, 'GET', MODEL(pkg.id), { headers: p1 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.vnf.descriptorId, pkg.vnfdId);
      const simple = res.body.flavours.find((f) => f.flavourId === 'simple');
      assert.deepEqual(simple?.vdus.map((v) => v.id).sort(), ['VDU1', 'VDU2']);
      assert.ok(simple?.scalingAspects.length);

      assert.ok(isProblem(await http(server.url, 'GET', MODEL(pkg.id), { headers: p2 }), 404));
      assert.ok(isProblem(await http(server.url, 'GET', MODEL(pkg.id), { headers: lcmOnly }), 403));
      assert.ok(isProblem(await http(server.url, 'GET', MODEL(pkg.id)), 401));
    });

    test('a package not onboarded: 409 saying so', async () => {
      const pkg = await createPkg(server.url, p1);
      const res = await http<{ detail: string }>(server.url, 'GET', MODEL(pkg.id), { headers: p1 });
      assert.ok(isProblem(res, 409), res.text);
      assert.match(res.body.detail, /CREATED/);
    });

    test('a failed onboarding keeps the lines around each error', async () => {
      const zip = join(tempDir('bosun-broken-'), 'broken.zip');
      await brokenPackage(zip);
      const pkg = await onboard(server.url, await readFile(zip), p1);
      assert.equal(pkg.onboardingState, 'ERROR');
      const res = await http<{
        onboardingFailureDetails: {
          diagnostics: {
            code: string;
            file?: string;
            line?: number;
            excerpt?: { firstLine: number; lines: string[] };
          }[];
        };
      }>(server.url, 'GET', `/vnfpkgm/v2/vnf_packages/${pkg.id}`, { headers: { ...V2_HEADERS, ...p1 } });
      const error = res.body.onboardingFailureDetails.diagnostics.find(
        (d) => d.code === 'TOSCA_UNKNOWN_TYPE',
      );
      assert.equal(error?.file, 'single.yaml');
      assert.equal(error?.line, 27);
      assert.equal(error?.excerpt?.firstLine, 24);
      assert.equal(error?.excerpt?.lines.length, 7);
      assert.equal(error?.excerpt?.lines[3].trim(), 'type: tosca.nodes.nfv.Vdu.Computer');
    });
  });
}
