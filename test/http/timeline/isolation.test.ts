/**
 * The timeline and its stream have the LCM API's authentication and project isolation, on SQLite
 * and PostgreSQL with OAuth 2.0: no token is 401, a token without an LCM scope is 403, another
 * project's token gets 404 for both (as for the op occ itself), the owner's read-only token and
 * an admin read them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { addClient, bearer, tokenOf } from '../auth/oauth2-support.ts';
import { LCM_TEST_CONFIG } from '../vnflcm/lcm-server.ts';
import { INSTANTIATE, MAIN_SAMPLE, V2 } from '../vnflcm/lcm-support.ts';
import { onboard, sample } from '../vnfpkgm/support.ts';
import { brief, readStream, TIMELINE } from './timeline-support.ts';

for (const dialect of DIALECTS) {
  describe(`op occ timeline: authentication and project isolation (${dialect})`, () => {
    let server: TestServer;
    const tokens: Record<string, string> = {};
    let opOccId: string;
    before(async () => {
      server = await startTestServer(dialect, { config: { ...LCM_TEST_CONFIG, auth: { mode: 'oauth2' } } });
      tokens.admin = await tokenOf(server, await addClient(server, ['bosun:admin'], 'ops'));
      tokens.a = await tokenOf(server, await addClient(server, ['vnflcm:v2:all'], 'tenant-a'));
      tokens.aRead = await tokenOf(server, await addClient(server, ['vnflcm:v2:readonly'], 'tenant-a'));
      tokens.b = await tokenOf(server, await addClient(server, ['vnflcm:v2:all'], 'tenant-b'));
      tokens.pkgOnly = await tokenOf(
        server,
        await addClient(server, ['vnfpkgm:v1:all', 'vnfpkgm:v2:all'], 'tenant-a'),
      );
      const pkg = await onboard(server.url, sample(MAIN_SAMPLE), bearer(tokens.pkgOnly as string));
      assert.equal(pkg.onboardingState, 'ONBOARDED');
      const as = { ...bearer(tokens.a as string), Version: '2.0.0' };
      const inst = await http<{ id: string }>(server.url, 'POST', `${V2}/vnf_instances`, {
        headers: as,
        body: { vnfdId: pkg.vnfdId },
      });
      assert.equal(inst.status, 201, inst.text);
      const started = await http(server.url, 'POST', `${V2}/vnf_instances/${inst.body.id}/instantiate`, {
        headers: as,
        body: INSTANTIATE,
      });
      assert.equal(started.status, 202, started.text);
      opOccId = (started.headers.get('location') ?? '').split('/').at(-1) as string;
    });
    after(() => server.close());

    const get = (path: string, token?: string) =>
      http(server.url, 'GET', `${TIMELINE}/${opOccId}/${path}`, { headers: token ? bearer(token) : {} });

    test("the owner's project reads the timeline and follows the stream; another project's token gets 404", async () => {
      const owner = await readStream(server.url, opOccId, { headers: bearer(tokens.a as string) });
      assert.equal(owner.status, 200);
      assert.deepEqual(owner.end, { operationState: 'COMPLETED' });
      assert.equal(brief(owner.events[0] as (typeof owner.events)[number]), 'state STARTING');
      for (const token of [tokens.a, tokens.aRead, tokens.admin]) {
        const read = await get('timeline', token);
        assert.equal(read.status, 200, read.text);
        assert.deepEqual((read.body as { events: unknown[] }).events, owner.events);
      }
      const adminStream = await readStream(server.url, opOccId, { headers: bearer(tokens.admin as string) });
      assert.deepEqual(adminStream.events, owner.events);
      // Another project: 404 for both, exactly as for the op occ itself.
      for (const path of ['timeline', 'events']) assert.ok(isProblem(await get(path, tokens.b), 404), path);
      const foreign = await readStream(server.url, opOccId, { headers: bearer(tokens.b as string) });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.events.length, 0);
      assert.ok(
        isProblem(
          await http(server.url, 'GET', `${V2}/vnf_lcm_op_occs/${opOccId}`, {
            headers: { ...bearer(tokens.b as string), Version: '2.0.0' },
          }),
          404,
        ),
      );
    });

    test('no token is 401; a token without an LCM scope is 403', async () => {
      for (const path of ['timeline', 'events']) {
        const anonymous = await get(path);
        assert.ok(isProblem(anonymous, 401), `${path}: ${anonymous.status}`);
        assert.ok(anonymous.headers.get('www-authenticate'));
        assert.ok(isProblem(await get(path, tokens.pkgOnly), 403), path);
      }
    });
  });
}
