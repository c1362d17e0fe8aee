/**
 * The /vnflcm/v2 lists through the SOL013 list engine — attribute filters (columns and nested
 * attributes), selectors with SOL003's default exclusions, paging with Link — and project
 * isolation in OAuth 2.0 mode: another project's instances and op occs are invisible (404) and
 * untouchable, a read-only scope cannot start operations (403).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { addClient, bearer, tokenOf } from '../auth/oauth2-support.ts';
import { onboard, sample } from '../vnfpkgm/support.ts';
import { H, INSTANTIATE, type Instance, MAIN_SAMPLE, type OpOcc, V2 } from './lcm-support.ts';

const SCOPES = ['vnfpkgm:v1:all', 'vnfpkgm:v2:all', 'vnflcm:v2:all'];

for (const dialect of DIALECTS) {
  describe(`/vnflcm/v2 lists and projects (${dialect})`, () => {
    let server: TestServer;
    let a: Record<string, string>;
    let b: Record<string, string>;
    let readonly: Record<string, string>;
    let vnfdA: string;
    before(async () => {
      server = await startTestServer(dialect, {
        config: {
          auth: { mode: 'oauth2' },
          worker: { pollIntervalMs: 50 },
          sim: { operationDelayMs: 0 },
          paging: { pageSizes: { vnf_instances_v2: 2, vnf_lcm_op_occs_v2: 2 } },
        },
      });
      const tokenA = bearer(await tokenOf(server, await addClient(server, SCOPES, 'tenant-a')));
      a = { ...H, ...tokenA };
      b = { ...H, ...bearer(await tokenOf(server, await addClient(server, SCOPES, 'tenant-b'))) };
      readonly = {
        ...H,
        ...bearer(await tokenOf(server, await addClient(server, ['vnflcm:v2:readonly'], 'tenant-a'))),
      };
      const pkg = await onboard(server.url, sample(MAIN_SAMPLE), tokenA);
      assert.equal(pkg.onboardingState, 'ONBOARDED');
      vnfdA = pkg.vnfdId as string;
    });
    after(() => server.close());

    const create = async (headers: Record<string, string>, body: Record<string, unknown>) => {
      const res = await http<Instance>(server.url, 'POST', `${V2}/vnf_instances`, { headers, body });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    const list = <T>(headers: Record<string, string>, query: string) =>
      http<T[]>(server.url, 'GET', `${V2}/${query}`, { headers });
    const run = async (headers: Record<string, string>, id: string, task: string, body: object) => {
      const res = await http(server.url, 'POST', `${V2}/vnf_instances/${id}/${task}`, { headers, body });
      assert.equal(res.status, 202, res.text);
      const opId = (res.headers.get('location') ?? '').split('/').pop() as string;
      for (let i = 0; i < 500; i++) {
        const op = await http<OpOcc>(server.url, 'GET', `${V2}/vnf_lcm_op_occs/${opId}`, { headers });
        if (['COMPLETED', 'FAILED_TEMP'].includes(op.body.operationState)) return op.body;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('op occ did not end');
    };

    test('filters, selectors and paging on instances and op occs', async () => {
      const one = await create(a, { vnfdId: vnfdA, vnfInstanceName: 'alpha', metadata: { site: 'paris' } });
      const two = await create(a, { vnfdId: vnfdA, vnfInstanceName: 'beta' });
      const three = await create(a, { vnfdId: vnfdA, vnfInstanceName: 'gamma' });
      assert.equal((await run(a, one.id, 'instantiate', INSTANTIATE)).operationState, 'COMPLETED');
      assert.equal(
        (await run(a, one.id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' })).operationState,
        'COMPLETED',
      );
      assert.equal((await run(a, two.id, 'instantiate', INSTANTIATE)).operationState, 'COMPLETED');

      const named = await list<Instance>(a, 'vnf_instances?filter=(eq,vnfInstanceName,beta)');
      assert.deepEqual(
        named.body.map((i) => i.id),
        [two.id],
      );
      const idle = await list<Instance>(a, 'vnf_instances?filter=(eq,instantiationState,NOT_INSTANTIATED)');
      assert.deepEqual(named.body.length + idle.body.length, 2);
      assert.deepEqual(
        idle.body.map((i) => i.id),
        [three.id],
      );
      const scaled = await list<Instance>(
        a,
        'vnf_instances?filter=(eq,instantiatedVnfInfo/scaleStatus/scaleLevel,1)',
      );
      assert.deepEqual(
        scaled.body.map((i) => i.id),
        [one.id],
      );
      const byMeta = await list<Instance>(a, 'vnf_instances?filter=(eq,metadata/site,paris)');
      assert.deepEqual(
        byMeta.body.map((i) => i.id),
        [one.id],
      );
      assert.ok(isProblem(await list(a, 'vnf_instances?filter=(eq,nope,1)'), 400));
      // Default selectors leave the complex attributes out; fields brings one back.
      const first = (await list<Instance>(a, `vnf_instances?filter=(eq,id,${one.id})`)).body[0];
      assert.equal(first.instantiatedVnfInfo, undefined);
      assert.equal(first.metadata, undefined);
      const withMeta = (await list<Instance>(a, `vnf_instances?filter=(eq,id,${one.id})&fields=metadata`))
        .body[0];
      assert.deepEqual(withMeta.metadata, { site: 'paris' });
      assert.equal(withMeta.instantiatedVnfInfo, undefined);
      const all = (await list<Instance>(a, `vnf_instances?filter=(eq,id,${one.id})&all_fields`)).body[0];
      assert.ok(all.instantiatedVnfInfo);
      // Paging: two per page, Link to the next keeping the filter.
      const page1 = await list<Instance>(a, 'vnf_instances');
      assert.equal(page1.body.length, 2);
      const next = /<([^>]+)>; rel="next"/.exec(page1.headers.get('link') ?? '')?.[1];
      assert.ok(next);
      const page2 = await http<Instance[]>(next, 'GET', '', { headers: a });
      assert.equal(page2.body.length, 1);
      assert.equal(page2.headers.get('link'), null);
      assert.deepEqual(
        [...page1.body, ...page2.body].map((i) => i.id).sort(),
        [one.id, two.id, three.id].sort(),
      );

      // Op occs: by operation, state, instance; default exclusions; paging.
      const scales = await list<OpOcc>(a, 'vnf_lcm_op_occs?filter=(eq,operation,SCALE)');
      assert.equal(scales.body.length, 1);
      assert.equal(scales.body[0].operationParams, undefined);
      assert.equal(scales.body[0].resourceChanges, undefined);
      const ofOne = await list<OpOcc>(
        a,
        `vnf_lcm_op_occs?filter=(eq,vnfInstanceId,${one.id});(eq,operationState,COMPLETED)&all_fields`,
      );
      assert.deepEqual(ofOne.body.map((o) => o.operation).sort(), ['INSTANTIATE', 'SCALE']);
      assert.ok(ofOne.body[0].resourceChanges);
      const added = await list<OpOcc>(
        a,
        'vnf_lcm_op_occs?filter=(eq,resourceChanges/affectedVnfcs/changeType,ADDED)',
      );
      assert.equal(added.body.length, 2);
      // Newest first across pages: the operation just started comes first.
      const occPage = await list<OpOcc>(a, 'vnf_lcm_op_occs');
      assert.equal(occPage.body.length, 2);
      const occNext = /<([^>]+)>; rel="next"/.exec(occPage.headers.get('link') ?? '')?.[1];
      assert.ok(occNext);
      const occPage2 = await http<OpOcc[]>(occNext, 'GET', '', { headers: a });
      assert.deepEqual(
        [...occPage.body, ...occPage2.body].map((o) => [o.vnfInstanceId, o.operation]),
        [
          [two.id, 'INSTANTIATE'],
          [one.id, 'SCALE'],
          [one.id, 'INSTANTIATE'],
        ],
      );
      const whole = await list<OpOcc>(a, 'vnf_lcm_op_occs?all_records=yes');
      assert.deepEqual(
        whole.body.map((o) => o.id),
        [...occPage.body, ...occPage2.body].map((o) => o.id),
      );
      assert.equal(whole.headers.get('link'), null);
      // Every attribute of the representation can be selected; one it does not have is refused.
      for (const name of Object.keys(ofOne.body[0])) {
        assert.equal((await list(a, `vnf_lcm_op_occs?fields=${name}`)).status, 200, name);
      }
      for (const name of Object.keys(all)) {
        assert.equal((await list(a, `vnf_instances?fields=${name}`)).status, 200, name);
      }
      const wrong = await http(server.url, 'GET', `${V2}/vnf_lcm_op_occs?fields=wrong_field`, { headers: a });
      assert.ok(isProblem(wrong, 400));
      assert.match((wrong.body as { detail: string }).detail, /'wrong_field' names no attribute/);
    });

    test('another project sees and touches nothing; a read-only scope starts nothing', async () => {
      const mine = await create(a, { vnfdId: vnfdA, vnfInstanceName: 'private' });
      const op = await run(a, mine.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED');
      // Project B cannot even create from A's package: the vnfdId is unknown in its project.
      assert.ok(
        isProblem(
          await http(server.url, 'POST', `${V2}/vnf_instances`, { headers: b, body: { vnfdId: vnfdA } }),
          422,
        ),
      );
      assert.ok(
        isProblem(await http(server.url, 'GET', `${V2}/vnf_instances/${mine.id}`, { headers: b }), 404),
      );
      assert.ok(
        isProblem(
          await http(server.url, 'POST', `${V2}/vnf_instances/${mine.id}/terminate`, {
            headers: b,
            body: { terminationType: 'FORCEFUL' },
          }),
          404,
        ),
      );
      assert.ok(
        isProblem(await http(server.url, 'DELETE', `${V2}/vnf_instances/${mine.id}`, { headers: b }), 404),
      );
      assert.ok(
        isProblem(await http(server.url, 'GET', `${V2}/vnf_lcm_op_occs/${op.id}`, { headers: b }), 404),
      );
      assert.ok(
        isProblem(
          await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${op.id}/retry`, { headers: b }),
          404,
        ),
      );
      assert.deepEqual((await list<Instance>(b, 'vnf_instances')).body, []);
      assert.deepEqual((await list<OpOcc>(b, 'vnf_lcm_op_occs')).body, []);
      // Read-only: GET yes, POST no.
      assert.equal(
        (await http(server.url, 'GET', `${V2}/vnf_instances/${mine.id}`, { headers: readonly })).status,
        200,
      );
      assert.equal(
        (
          await http(server.url, 'POST', `${V2}/vnf_instances/${mine.id}/terminate`, {
            headers: readonly,
            body: { terminationType: 'FORCEFUL' },
          })
        ).status,
        403,
      );
    });
  });
}
