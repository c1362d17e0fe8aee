/**
 * Request values reach the LCM engine as sent: deep JSON is refused before anything recurses
 * over it, a value of the wrong type is a 400 rather than converted, and keys such as
 * `__proto__` and `constructor` are data in PATCH exactly as in POST.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { V2_HEADERS as PKG_HEADERS, V2 as PKG_V2 } from '../vnfpkgm/support.ts';
import { idOf } from './lcm-client.ts';
import { lcmServer } from './lcm-server.ts';
import { getInstance, H, V2, waitOpOcc } from './lcm-support.ts';

const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const KEYS_AS_DATA = '{"__proto__":{"polluted":true},"constructor":"c","plain":1}';

for (const dialect of DIALECTS) {
  describe(`LCM request values (${dialect})`, () => {
    const server = lcmServer(dialect);
    const post = (path: string, body: string) =>
      http(server.url, 'POST', `${V2}/${path}`, {
        headers: { ...H, 'content-type': 'application/json' },
        body,
      });

    test('metadata or userDefinedData nested 5,000 levels → 400, and the server keeps serving', async () => {
      const instance = await post('vnf_instances', `{"vnfdId":"${server.vnfdId}","metadata":${deep(5000)}}`);
      assert.ok(isProblem(instance, 400), instance.text);
      assert.match((instance.body as { detail: string }).detail, /deeper than 64 levels/);
      const pkg = await http(server.url, 'POST', PKG_V2, {
        headers: { ...PKG_HEADERS, 'content-type': 'application/json' },
        body: `{"userDefinedData":${deep(5000)}}`,
      });
      assert.ok(isProblem(pkg, 400), pkg.text);
      assert.equal((await post('vnf_instances', `{"vnfdId":"${server.vnfdId}"}`)).status, 201);
    });

    test('a value of the wrong type is refused, not converted', async () => {
      const named = await post('vnf_instances', `{"vnfdId":"${server.vnfdId}","vnfInstanceName":5}`);
      assert.ok(isProblem(named, 400), named.text);
      assert.match((named.body as { detail: string }).detail, /body\.vnfInstanceName: must be string/);
    });

    test('__proto__ and constructor keys are data in PATCH as in POST', async () => {
      const created = await post('vnf_instances', `{"vnfdId":"${server.vnfdId}","metadata":${KEYS_AS_DATA}}`);
      assert.equal(created.status, 201, created.text);
      const id = (created.body as { id: string }).id;
      const posted = await getInstance(server.url, id);
      assert.equal(
        JSON.stringify(posted.metadata),
        '{"__proto__":{"polluted":true},"constructor":"c","plain":1}',
      );
      const patched = await http(server.url, 'PATCH', `${V2}/vnf_instances/${id}`, {
        headers: { ...H, 'content-type': 'application/merge-patch+json' },
        body: '{"metadata":{"__proto__":{"more":2},"constructor":null,"prototype":"p"}}',
      });
      assert.equal(patched.status, 202, patched.text);
      assert.equal(
        (await waitOpOcc(server.url, idOf(patched.headers.get('location')))).operationState,
        'COMPLETED',
      );
      assert.equal(
        JSON.stringify((await getInstance(server.url, id)).metadata),
        '{"__proto__":{"polluted":true,"more":2},"plain":1,"prototype":"p"}',
      );
      assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    });

    test('__proto__ and constructor keys are data in a package PATCH as in POST', async () => {
      const created = await http<{ id: string }>(server.url, 'POST', PKG_V2, {
        headers: { ...PKG_HEADERS, 'content-type': 'application/json' },
        body: '{"userDefinedData":{"__proto__":"x","constructor":"c"}}',
      });
      assert.equal(created.status, 201, created.text);
      const patched = await http(server.url, 'PATCH', `${PKG_V2}/${created.body.id}`, {
        headers: { ...PKG_HEADERS, 'content-type': 'application/merge-patch+json' },
        body: '{"userDefinedData":{"__proto__":"y","constructor":null,"toString":"t"}}',
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(
        JSON.stringify((patched.body as { userDefinedData: unknown }).userDefinedData),
        '{"__proto__":"y","constructor":null,"toString":"t"}',
      );
      const shown = await http<{ userDefinedData: unknown }>(
        server.url,
        'GET',
        `${PKG_V2}/${created.body.id}`,
        {
          headers: PKG_HEADERS,
        },
      );
      assert.equal(JSON.stringify(shown.body.userDefinedData), '{"__proto__":"y","toString":"t"}');
    });
  });
}
