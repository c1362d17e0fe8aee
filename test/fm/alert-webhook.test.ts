/**
 * POST /alert and /alert/vnf_instances/{id} over real HTTP on SQLite and PostgreSQL, against
 * instances the LCM instantiated on the simulated VIM: credentials (none configured, missing,
 * wrong bearer, wrong Basic: 401 naming no secret), a batch with malformed and unmappable alerts
 * (each refused with its reason, the others taken), mapping to the VNFC by server id, hostname
 * and address, dedup of a re-sent alert, resolved clearing, the path's instance, the limits, and
 * a receiver bound to a project.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { lcmServer } from '../http/vnflcm/lcm-server.ts';
import { onboardOnce } from '../http/vnflcm/lcm-support.ts';
import { DIALECTS } from '../support/databases.ts';
import { http, isProblem } from '../support/http.ts';
import { startTestServer } from '../support/server.ts';
import {
  alarmsOf,
  alert,
  BASIC,
  BEARER,
  healsOf,
  instantiated,
  postAlerts,
  RECEIVERS,
  TOKEN,
  vnfcsOf,
} from './alert-support.ts';

const FM_CONFIG = {
  fm: { alertReceivers: RECEIVERS, alertMaxBatch: 60, alertMaxBodyBytes: 65536, healthIntervalMs: 0 },
};

for (const dialect of DIALECTS) {
  describe(`alert webhook on ${dialect}`, () => {
    const server = lcmServer(dialect, FM_CONFIG);

    test('refused without the credentials of a configured receiver, whatever the body', async () => {
      const instance = await instantiated(server.url, server.vnfdId, false);
      const [vnfc] = vnfcsOf(instance);
      const batch = [alert(instance.id, vnfc.serverId)];
      const wrongBasic = Buffer.from(`${BASIC.username}:not-the-password`).toString('base64');
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not-the-token-at-all' },
        { authorization: `Basic ${wrongBasic}` },
        { authorization: `Token ${TOKEN}` },
      ];
      for (const headers of attempts) {
        const res = await postAlerts(server.url, batch, { headers });
        assert.ok(isProblem(res, 401), `${JSON.stringify(headers)}: ${res.status} ${res.text}`);
        assert.match(res.headers.get('www-authenticate') ?? '', /Bearer realm="bosun-alert"/);
        assert.equal(res.text.includes(TOKEN) || res.text.includes(BASIC.password), false);
      }
      // Credentials come first: a caller without them learns nothing of the body's shape.
      assert.ok(isProblem(await http(server.url, 'POST', '/alert', { body: { nope: 1 } }), 401));
      assert.deepEqual(await alarmsOf(server.url, instance.id), []);

      const basic = Buffer.from(`${BASIC.username}:${BASIC.password}`).toString('base64');
      const ok = await postAlerts(server.url, batch, { headers: { authorization: `Basic ${basic}` } });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.raised, 1);
    });

    test('each alert of a batch on its own: the malformed and the unmappable are refused with their reason', async () => {
      const instance = await instantiated(server.url, server.vnfdId, false);
      const [first, second] = vnfcsOf(instance);
      const good = alert(instance.id, first.serverId);
      const { fingerprint: _dropped, ...noFingerprint } = alert(instance.id, second.serverId);
      const batch = [
        good,
        noFingerprint,
        alert(randomUUID(), second.serverId),
        alert(instance.id, second.serverId, { perceived_severity: 'APOCALYPTIC' }),
        alert(instance.id, 'no-such-server'),
        alert(instance.id, second.serverId, { event_type: '' }),
        'not an alert',
        alert(instance.id, first.serverId, { function_type: 'vnfpm' }),
        alert(instance.id, second.serverId, { server_id: '', server_name: second.serverName as string }),
      ];
      const res = await postAlerts(server.url, batch);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.received, 9);
      assert.equal(res.body.raised, 2);
      const reasons = new Map(res.body.refused.map((r) => [r.index, r.reason]));
      assert.deepEqual([...reasons.keys()], [1, 2, 3, 4, 5, 6, 7]);
      assert.match(reasons.get(1) as string, /malformed alert: \/fingerprint/);
      assert.match(reasons.get(2) as string, /VNF instance .* does not exist/);
      assert.match(reasons.get(3) as string, /perceived_severity="APOCALYPTIC" must be one of CRITICAL/);
      assert.match(reasons.get(4) as string, /names no VNFC .*server_id=no-such-server/);
      assert.match(reasons.get(5) as string, /event_type="" must be one of/);
      assert.match(reasons.get(6) as string, /malformed alert/);
      assert.match(reasons.get(7) as string, /performance management/);
      const alarms = await alarmsOf(server.url, instance.id);
      assert.deepEqual(
        alarms.map((a) => a.rootCauseFaultyResource.faultyResource.resourceId).sort(),
        [first.serverId, second.serverId].sort(),
      );
      const byServer = alarms.find(
        (a) => a.rootCauseFaultyResource.faultyResource.resourceId === first.serverId,
      );
      assert.deepEqual(byServer?.vnfcInstanceIds, [first.vnfcInfoId]);
      assert.equal(byServer?.perceivedSeverity, 'CRITICAL');
      assert.equal(byServer?.probableCause, 'server down');
      assert.equal(byServer?.faultType, 'Server Down');
      assert.ok(byServer?.faultDetails?.includes(`fingerprint: ${good.fingerprint}`));
    });

    test('VNFC by address; a re-sent alert changes nothing; resolved clears; the path names the instance', async () => {
      const instance = await instantiated(server.url, server.vnfdId, false);
      const first = vnfcsOf(instance).find((v) => v.address);
      assert.ok(first?.address, 'a VNFC of the sample has an address');
      const byAddress = alert(instance.id, '', { server_id: '', instance: `${first.address}:9100` });
      const raised = await postAlerts(server.url, [byAddress]);
      assert.equal(raised.body.raised, 1, raised.text);
      const again = await postAlerts(server.url, [byAddress]);
      assert.deepEqual([again.body.raised, again.body.updated], [0, 0]);
      const [alarm] = await alarmsOf(server.url, instance.id);
      assert.equal(alarm.rootCauseFaultyResource.faultyResource.resourceId, first.serverId);

      const endsAt = new Date().toISOString();
      const resolved = await postAlerts(server.url, [{ ...byAddress, status: 'resolved', endsAt }], {
        path: `/alert/vnf_instances/${instance.id}`,
        headers: BEARER,
      });
      assert.equal(resolved.body.cleared, 1, resolved.text);
      const [cleared] = await alarmsOf(server.url, instance.id);
      assert.equal(cleared.alarmClearedTime, endsAt);

      const other = await postAlerts(server.url, [alert(randomUUID(), first.serverId)], {
        path: `/alert/vnf_instances/${instance.id}`,
        headers: BEARER,
      });
      assert.match(other.body.refused[0]?.reason ?? '', /is not the VNF instance of the URL/);
      const { vnf_instance_id: _gone, ...unnamed } = alert(instance.id, first.serverId).labels;
      const inPath = await postAlerts(
        server.url,
        [{ ...alert(instance.id, first.serverId), labels: unnamed }],
        {
          path: `/alert/vnf_instances/${instance.id}`,
          headers: BEARER,
        },
      );
      assert.equal(inPath.body.raised, 1, inPath.text);
    });

    test('limits: too many alerts or too large a body is 413, not a body is 400', async () => {
      const instance = await instantiated(server.url, server.vnfdId, false);
      const [first] = vnfcsOf(instance);
      const many = Array.from({ length: 61 }, () => alert(instance.id, first.serverId));
      const tooMany = await postAlerts(server.url, many);
      assert.ok(isProblem(tooMany, 413), tooMany.text);
      assert.match(tooMany.text, /at most 60/);
      const big = alert(
        instance.id,
        first.serverId,
        {},
        { annotations: { fault_details: 'x'.repeat(70_000) } },
      );
      assert.ok(isProblem(await postAlerts(server.url, [big]), 413));
      assert.ok(
        isProblem(
          await http(server.url, 'POST', '/alert', { headers: BEARER, body: { alerts: 'many' } }),
          400,
        ),
      );
      assert.deepEqual(await alarmsOf(server.url, instance.id), []);
    });

    test('auto-heal off: a heal-kind alert raises its alarm and starts no heal', async () => {
      const instance = await instantiated(server.url, server.vnfdId, false);
      const [first] = vnfcsOf(instance);
      const res = await postAlerts(server.url, [
        alert(instance.id, first.serverId, { function_type: 'auto_heal' }),
      ]);
      assert.deepEqual([res.body.raised, res.body.healsQueued], [1, 0]);
      assert.deepEqual(await healsOf(server.url, instance.id), []);
    });
  });
}

describe('alert webhook: receivers and projects', () => {
  test('no receiver configured: every webhook is refused', async () => {
    const server = await startTestServer('sqlite');
    try {
      const res = await postAlerts(server.url, [], { headers: BEARER });
      assert.ok(isProblem(res, 401));
      assert.match(res.text, /No Alertmanager receiver is configured/);
    } finally {
      await server.close();
    }
  });

  describe('a receiver bound to a project', () => {
    const server = lcmServer('sqlite', {
      fm: {
        alertReceivers: [
          { name: 'elsewhere', bearerToken: 'token-of-another-project-0001', project: 'another' },
          ...RECEIVERS,
        ],
        healthIntervalMs: 0,
      },
    });
    test("takes no alert about another project's instance", async () => {
      await onboardOnce(server.url);
      const instance = await instantiated(server.url, server.vnfdId, false);
      const [first] = vnfcsOf(instance);
      const res = await postAlerts(server.url, [alert(instance.id, first.serverId)], {
        headers: { authorization: 'Bearer token-of-another-project-0001' },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.raised, 0);
      assert.match(res.body.refused[0].reason, /does not exist/);
      assert.deepEqual(await alarmsOf(server.url, instance.id), []);
    });
  });
});
